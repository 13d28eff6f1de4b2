// The one JSON line the emulator prints on stdout when it is ready (design.md "start contract").

/** Credentials of the seeded admin, as printed in the ready line. */
export interface ReadyAdmin {
  email: string;
  password: string;
  user_id: number;
  api_key: string;
}

/** `{"emulator":"ready","base_url":…,"admin":{"email","password","user_id","api_key"}}`, without newline. */
export function readyLine(baseUrl: string, admin: ReadyAdmin): string {
  return JSON.stringify({
    emulator: 'ready',
    base_url: baseUrl,
    admin: { email: admin.email, password: admin.password, user_id: admin.user_id, api_key: admin.api_key },
  });
}
