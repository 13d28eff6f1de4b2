// The Salesforce test server's metadata endpoints: the describe of an sObject (its fields as the user
// sees them, with the org's picklist values) and the Tooling API's CustomField create, whose fields and
// their field-level security are salesforce-setup.ts. Registered by salesforce-server.ts, which passes
// its shared state in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCHEMA } from './salesforce-schema';
import type { Records, SalesforceState } from './salesforce-state';

export function registerDescribeRoutes(app: FastifyInstance, s: SalesforceState, records: Records): void {
  const { hidden, setup, picklists, base } = s;
  const { typeOf, setupCheck } = records;

  // The describe of an sObject: its fields as this user sees them (hidden ones left out).
  app.get(`${base}/sobjects/:type/describe`, async (req: FastifyRequest) => {
    const type = typeOf((req.params as { type: string }).type);
    const fields = Object.entries(SCHEMA[type])
      .filter(([name]) => !(type === 'Task' && hidden.has(name)) && setup.visible(type, name))
      .map(([name, def]) => ({
        name,
        type: def.kind,
        createable: !def.readOnly,
        updateable: !def.readOnly && !def.createOnly,
        ...(def.max !== undefined ? { length: def.max } : {}),
        ...(def.refersTo ? { referenceTo: def.refersTo } : {}),
        ...(def.kind === 'picklist'
          ? {
              restrictedPicklist: true,
              picklistValues: def.orgPicklist
                ? picklists[def.orgPicklist].map((e) => ({
                    value: e.value,
                    label: e.label ?? e.value,
                    active: e.active !== false,
                    defaultValue: e.defaultValue === true,
                    validFor: null,
                  }))
                : def.values!.map((v) => ({
                    value: v,
                    label: v,
                    active: true,
                    defaultValue: false,
                    validFor: null,
                  })),
            }
          : {}),
      }));
    return {
      name: type,
      createable: true,
      updateable: true,
      fields: [{ name: 'Id', type: 'id' }, ...fields],
    };
  });

  app.post(`${base}/tooling/sobjects/CustomField`, async (req: FastifyRequest, reply: FastifyReply) => {
    let id = '';
    setupCheck(() => (id = setup.createCustomField(req.body)));
    return reply.code(201).send({ id, success: true, errors: [] });
  });
}
