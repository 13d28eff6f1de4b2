// The HubSpot test server's stored objects, shared by the server and its contact routes.

export type ObjectType = 'calls' | 'tasks' | 'contacts';

export interface FakeObject {
  id: string;
  type: ObjectType;
  properties: Record<string, string | null>;
  associations: { toId: string; category: string; typeId: number }[];
  createdAt: string;
  updatedAt: string;
}
