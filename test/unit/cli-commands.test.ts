import { buildProgram, commandNamed } from '../../cli/main';

describe('callsync loads the command it runs', () => {
  it('finds the command after global options and their values', () => {
    expect(commandNamed(['--config', 'users.json', 'users', 'list'])).toBe('users');
    expect(commandNamed(['--data-dir', 'keys', 'status'])).toBe('status');
    expect(commandNamed(['keys', 'generate'])).toBe('keys');
    expect(commandNamed(['--help'])).toBeUndefined();
    expect(commandNamed(['bogus', 'users'])).toBeUndefined();
    expect(commandNamed(['toString'])).toBeUndefined();
  });

  it('registers only the command run, and every command for help or an unknown one', () => {
    expect(buildProgram(['--config', 'c.json', 'keys', 'generate']).commands.map((c) => c.name())).toEqual([
      'keys',
    ]);
    const all = buildProgram(['--help']).commands.map((c) => c.name());
    expect(all).toEqual(expect.arrayContaining(['start', 'worker', 'server', 'users', 'keys', 'retry']));
    expect(buildProgram(['bogus']).commands.map((c) => c.name())).toEqual(all);
  });
});
