import { Client } from 'pg';

describe('PostgreSQL for tests', () => {
  const url = process.env.DATABASE_URL;

  it('is a real server that commits and reads back rows', async () => {
    expect(url).toMatch(/^postgres(ql)?:\/\//);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
      expect(Number(rows[0]?.server_version_num)).toBeGreaterThanOrEqual(140000);
      await client.query('CREATE TEMP TABLE smoke (id int PRIMARY KEY, note text)');
      await client.query('INSERT INTO smoke VALUES (1, $1), (2, $2)', ['first', 'second']);
      await expect(client.query('INSERT INTO smoke VALUES (1, $1)', ['dup'])).rejects.toThrow(
        /duplicate key/,
      );
      const read = await client.query<{ note: string }>('SELECT note FROM smoke ORDER BY id');
      expect(read.rows.map((r) => r.note)).toEqual(['first', 'second']);
    } finally {
      await client.end();
    }
  });

  it('runs embedded on a free port unless DATABASE_URL was given', () => {
    if (process.env.CALLSYNC_TEST_EMBEDDED_PG === '1') {
      const port = Number(new URL(url!).port);
      expect(port).toBeGreaterThan(0);
      expect(port).not.toBe(5432);
    } else {
      expect(url).toBeTruthy();
    }
  });
});
