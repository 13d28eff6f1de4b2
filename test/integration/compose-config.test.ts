// docker-compose.yml as a compose client reads it: Debian's docker-compose (scripts/debian-packages.sh
// installs it; `config` needs no Docker engine) accepts it with the variables docs/deployment.md's `.env`
// commands write, refuses it without any one of them (no default password), and the file it
// resolves publishes only the server on every interface and pins images their projects publish.
// test/e2e/compose-stack.test.ts runs the callsync services of the same resolved file.
import { composeConfig, deploymentGuideEnv, type ResolvedCompose } from '../support/compose-services';

const vars = deploymentGuideEnv();

/** A published port as `[ip:]published:target/protocol` (docker-compose 1.29 prints some in the long syntax). */
function portText(port: unknown): string {
  if (typeof port === 'string') return port;
  const p = port as { host_ip?: string; published: number; target: number; protocol?: string };
  return `${p.host_ip ? `${p.host_ip}:` : ''}${p.published}:${p.target}/${p.protocol ?? 'tcp'}`;
}
let compose: ResolvedCompose;

beforeAll(() => {
  compose = composeConfig(vars);
});

describe('docker-compose.yml', () => {
  it('docs/deployment.md sets every variable compose requires, each one it refuses to start without', () => {
    expect(Object.keys(vars).sort()).toEqual([
      'ACME_PLATFORM_API_KEY',
      'ACME_WEBHOOK_SECRET',
      'DASHBOARD_PASSWORD',
      'GARAGE_RPC_SECRET',
      'GRAFANA_ADMIN_PASSWORD',
      'POSTGRES_PASSWORD',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
    ]);
    for (const name of Object.keys(vars)) {
      const { [name]: _left, ...rest } = vars;
      expect(() => composeConfig(rest)).toThrow(new RegExp(`set ${name}`));
    }
  });

  it('publishes the server on every interface, the UIs on loopback only, and no database, gRPC or S3 port', () => {
    const published = Object.fromEntries(
      Object.entries(compose.services)
        .filter(([, s]) => s.ports?.length)
        .map(([name, s]) => [name, s.ports!.map(portText)]),
    );
    expect(published).toEqual({
      server: ['8788:8788/tcp'],
      'temporal-ui': ['127.0.0.1:8233:8080/tcp'],
      prometheus: ['127.0.0.1:9090:9090/tcp'],
      grafana: ['127.0.0.1:3000:3000/tcp'],
    });
  });

  it('pins maintained images: Garage for S3, Temporal server and admin-tools of one release, no auto-setup', () => {
    const images = Object.fromEntries(
      Object.entries(compose.services)
        .filter(([, s]) => s.image)
        .map(([name, s]) => [name, s.image!]),
    );
    for (const image of Object.values(images)) {
      expect(image).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(image).not.toMatch(/:latest$|^minio\/|temporalio\/auto-setup/);
    }
    expect(images.garage).toMatch(/^dxflrs\/garage:v2\.\d+\.\d+$/);
    const release = images.temporal!.replace('temporalio/server:', '');
    expect(images['temporal-schema']).toBe(`temporalio/admin-tools:${release}`);
    expect(images['temporal-namespace']).toBe(`temporalio/admin-tools:${release}`);
  });

  it('starts callsync after the keys, the schema, the namespace and the bucket; workers after the schedules', () => {
    const deps = (name: string) =>
      (compose.services[name] as { depends_on?: Record<string, { condition: string }> }).depends_on;
    const callsync = {
      keys: { condition: 'service_completed_successfully' },
      postgres: { condition: 'service_healthy' },
      'temporal-namespace': { condition: 'service_completed_successfully' },
      garage: { condition: 'service_healthy' },
    };
    expect(deps('server')).toEqual(callsync);
    expect(deps('schedules')).toEqual(callsync);
    expect(deps('worker')).toEqual({
      ...callsync,
      schedules: { condition: 'service_completed_successfully' },
    });
    // Workers scale with --scale: no fixed container name or host port on them.
    expect(compose.services.worker).not.toHaveProperty('container_name');
    expect(compose.services.worker).not.toHaveProperty('ports');
  });
});
