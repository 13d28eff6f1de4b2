import { filter } from '../../../connectors/platform';
import type { Cdr } from '../../../connectors/platform';
import { cdrNoteSchema, cdrSchema, monitorSchema } from '../../../connectors/platform/schemas';
import { expectLabels, firstPage, firstRecord, idOf, parsedPage, readAll, type Step } from './step';

const PCAP_MAGIC = [0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1];

function expectPcap(bytes: Buffer): void {
  expect(bytes.length).toBeGreaterThan(24);
  expect(PCAP_MAGIC).toContain(bytes.readUInt32LE(0));
}

function expectMp3(bytes: Buffer): void {
  const id3 = bytes.subarray(0, 3).toString('latin1') === 'ID3';
  const offset = id3 ? 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!) : 0;
  // MPEG audio frame sync: 11 set bits.
  expect(bytes[offset]).toBe(0xff);
  expect(bytes[offset + 1]! & 0xe0).toBe(0xe0);
}

/** History module: CDRs, recordings, MSDRs, voice messages, chats. */
export const historySteps: Step[] = [
  {
    endpoint: 'GET /cdrs',
    async run(ctx) {
      const connected = filter<Cdr>().eq('disposition', 'CONNECTED').gte('billsec', 30);
      const page = await firstPage(ctx.client.history.cdrs.list({ filter: connected, limit: 100 }));
      expect(page.data.length).toBe(100);
      expect(page.data.every((c) => c.disposition === 'CONNECTED' && (c.billsec ?? 0) >= 30)).toBe(true);
      const withRecording = page.data[0]!;
      ctx.ids.cdr = withRecording.id;
    },
  },
  {
    endpoint: 'GET /cdrs/{id}',
    async run(ctx) {
      const cdr = await ctx.client.history.cdrs.get(idOf(ctx, 'cdr'));
      expect(cdr.id).toBe(idOf(ctx, 'cdr'));
      expect(cdr.billsec!).toBeLessThanOrEqual(cdr.duration!);
    },
  },
  {
    endpoint: 'PATCH /cdrs',
    async run(ctx) {
      await ctx.client.history.cdrs.bulkUpdate([{ id: idOf(ctx, 'cdr'), info: 'reviewed by contract test' }]);
      expect((await ctx.client.history.cdrs.get(idOf(ctx, 'cdr'))).info).toBe('reviewed by contract test');
      // Labels (by name or id, existing call labels only) and a note, for several CDRs in one request.
      const label = await ctx.client.calls.labels.create({ name: 'Contract outcome', color: '#123456' });
      const before = await ctx.client.history.cdrs.get(idOf(ctx, 'cdr'));
      const other = (await firstPage(ctx.client.history.cdrs.list({ limit: 2 }))).data.find(
        (c) => c.id !== idOf(ctx, 'cdr'),
      )!;
      await ctx.client.history.cdrs.bulkUpdate([
        { id: idOf(ctx, 'cdr'), labels: ['Contract outcome'], note: 'Outcome: Connected' },
        { id: other.id, labels: [label.id] },
      ]);
      const after = await ctx.client.history.cdrs.get(idOf(ctx, 'cdr'));
      expect(after.labels).toEqual(['Contract outcome']);
      expect(after.nb_notes).toBe(Number(before.nb_notes ?? 0) + 1);
      expect((await ctx.client.history.cdrs.get(other.id)).labels).toEqual(['Contract outcome']);
      const notes = await firstPage(ctx.client.history.cdrs.notes(idOf(ctx, 'cdr'), { limit: 100 }));
      expect(notes.data.map((n) => n.note)).toContain('Outcome: Connected');
      // An unknown label fails the whole request, naming the item, and writes nothing.
      await expect(
        ctx.client.history.cdrs.bulkUpdate([
          { id: other.id, note: 'must not be written' },
          { id: idOf(ctx, 'cdr'), labels: ['No such label'] },
        ]),
      ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('[1].labels[0]') });
      expect((await ctx.client.history.cdrs.get(other.id)).nb_notes).toBe(
        (await firstPage(ctx.client.history.cdrs.notes(other.id, { limit: 100 }))).data.length,
      );
    },
  },
  {
    endpoint: 'GET /cdrs/{id}.trace',
    async run(ctx) {
      const file = await ctx.client.history.cdrs.trace(idOf(ctx, 'cdr'));
      expect(file.contentType).toMatch(/^text\/plain/);
      expect((await readAll(file.body)).toString('utf8')).toMatch(/INVITE sip:/);
    },
  },
  {
    endpoint: 'GET /cdrs/{id}.pcap',
    async run(ctx) {
      const file = await ctx.client.history.cdrs.pcap(idOf(ctx, 'cdr'));
      expect(file.contentType).toMatch(/pcap/);
      expectPcap(await readAll(file.body));
    },
  },
  {
    endpoint: 'GET /cdrs/calltracking',
    async run(ctx) {
      const cdrs = parsedPage(cdrSchema, await firstPage(ctx.client.history.cdrs.callTracking()));
      for (const c of cdrs) expect(c.id).toBeGreaterThan(0);
    },
  },
  {
    endpoint: 'GET /cdrs/dictionaries',
    async run(ctx) {
      const cdr = await ctx.client.history.cdrs.get(idOf(ctx, 'cdr'));
      expectLabels(await ctx.client.history.cdrs.dictionaries(), ['type', 'disposition'], cdr);
    },
  },
  {
    endpoint: 'GET /cdrs/{id}/notes',
    async run(ctx) {
      const notes = parsedPage(
        cdrNoteSchema,
        await firstPage(ctx.client.history.cdrs.notes(idOf(ctx, 'cdr'))),
      );
      for (const n of notes) expect(n.cdr_id).toBe(idOf(ctx, 'cdr'));
    },
  },
  {
    endpoint: 'GET /monitors',
    async run(ctx) {
      const page = await firstPage(ctx.client.history.monitors.list({ limit: 20 }));
      const monitor = parsedPage(monitorSchema, page).find((m) => m.transcript);
      expect(monitor?.transcript).toEqual(expect.any(String));
      ctx.ids.monitor = monitor!.id;
      ctx.ids.monitorToDelete = page.data.find((m) => m.id !== monitor!.id)!.id;
    },
  },
  {
    endpoint: 'GET /monitors/{id}',
    async run(ctx) {
      const monitor = await ctx.client.history.monitors.get(idOf(ctx, 'monitor'));
      const cdrs = await firstPage(
        ctx.client.history.cdrs.list({ filter: filter<Cdr>().eq('live_id', monitor.live_id!) }),
      );
      expect(cdrs.data).toHaveLength(1);
    },
  },
  {
    endpoint: 'PATCH /monitors/{id}',
    async run(ctx) {
      const m = await ctx.client.history.monitors.update(idOf(ctx, 'monitor'), {
        summary: 'Customer asked for a refund',
      });
      expect(m.summary).toBe('Customer asked for a refund');
    },
  },
  {
    endpoint: 'GET /monitors/{id}.mp3',
    async run(ctx) {
      const file = await ctx.client.history.monitors.mp3(idOf(ctx, 'monitor'));
      expect(file.contentType).toBe('audio/mpeg');
      expectMp3(await readAll(file.body));
    },
  },
  {
    endpoint: 'DELETE /monitors/{ids}',
    async run(ctx) {
      const result = await ctx.client.history.monitors.delete([idOf(ctx, 'monitorToDelete')]);
      expect([202, 204]).toContain(result.status);
    },
  },
  {
    endpoint: 'GET /monitors/aidictionary',
    async run(ctx) {
      ctx.ids.aiDictionary = (await firstRecord(ctx.client.history.monitors.aiDictionary.list())).id;
    },
  },
  {
    endpoint: 'GET /monitors/aidictionary/{id}',
    async run(ctx) {
      const d = await ctx.client.history.monitors.aiDictionary.get(idOf(ctx, 'aiDictionary'));
      expect(d.id).toBe(idOf(ctx, 'aiDictionary'));
    },
  },
  {
    endpoint: 'GET /msdrs',
    async run(ctx) {
      ctx.ids.msdr = (await firstRecord(ctx.client.history.msdrs.list())).id;
    },
  },
  {
    endpoint: 'GET /msdrs/{id}',
    async run(ctx) {
      expect((await ctx.client.history.msdrs.get(idOf(ctx, 'msdr'))).id).toBe(idOf(ctx, 'msdr'));
    },
  },
  {
    endpoint: 'GET /msdrs/{id}.trace',
    async run(ctx) {
      const file = await ctx.client.history.msdrs.trace(idOf(ctx, 'msdr'));
      expect((await readAll(file.body)).toString('utf8')).toMatch(/SIP\/2\.0/);
    },
  },
  {
    endpoint: 'GET /msdrs/{id}.pcap',
    async run(ctx) {
      expectPcap(await readAll((await ctx.client.history.msdrs.pcap(idOf(ctx, 'msdr'))).body));
    },
  },
  {
    endpoint: 'GET /msdrs/dictionaries',
    async run(ctx) {
      const msdr = await ctx.client.history.msdrs.get(idOf(ctx, 'msdr'));
      expectLabels(await ctx.client.history.msdrs.dictionaries(), ['type'], msdr);
    },
  },
  {
    endpoint: 'GET /voicemessages',
    async run(ctx) {
      const page = await firstPage(ctx.client.history.voicemessages.list({ limit: 10 }));
      ctx.ids.voicemessage = page.data[0]!.id;
      ctx.ids.voicemessageToDelete = page.data[1]!.id;
    },
  },
  {
    endpoint: 'GET /voicemessages/{id}',
    async run(ctx) {
      const vm = await ctx.client.history.voicemessages.get(idOf(ctx, 'voicemessage'));
      const cdrs = await firstPage(
        ctx.client.history.cdrs.list({ filter: filter<Cdr>().eq('live_id', vm.live_id!) }),
      );
      expect(cdrs.data[0]?.disposition).toBe('VM');
    },
  },
  {
    endpoint: 'PATCH /voicemessages',
    async run(ctx) {
      await ctx.client.history.voicemessages.bulkUpdate([{ id: idOf(ctx, 'voicemessage'), folder: '2' }]);
      expect(String((await ctx.client.history.voicemessages.get(idOf(ctx, 'voicemessage'))).folder)).toBe(
        '2',
      );
    },
  },
  {
    endpoint: 'GET /voicemessages/{id}.mp3',
    async run(ctx) {
      const file = await ctx.client.history.voicemessages.mp3(idOf(ctx, 'voicemessage'));
      expectMp3(await readAll(file.body));
    },
  },
  {
    endpoint: 'DELETE /voicemessages/{ids}',
    async run(ctx) {
      expect(
        (await ctx.client.history.voicemessages.delete([idOf(ctx, 'voicemessageToDelete')])).status,
      ).toBe(204);
    },
  },
  {
    endpoint: 'GET /chats',
    async run(ctx) {
      ctx.ids.chat = (await firstRecord(ctx.client.history.chats.list())).id;
    },
  },
  {
    endpoint: 'GET /chats/{id}',
    async run(ctx) {
      expect((await ctx.client.history.chats.get(idOf(ctx, 'chat'))).id).toBe(idOf(ctx, 'chat'));
    },
  },
  {
    endpoint: 'DELETE /chatmsgs/{ids}',
    async run(ctx) {
      const messages = await firstPage(
        ctx.client.customer.users.chatMessages(ctx.admin.user_id, { limit: 2 }),
      );
      expect(messages.data.length).toBeGreaterThan(0);
      expect((await ctx.client.history.chatMessages.delete([messages.data[0]!.id])).status).toBe(204);
    },
  },
];
