// Storage module resources: SMS, canned responses, faxes, voicemail announcements.
import { z } from 'zod';
import { code, date, int, intId, num, str } from './primitives';

const smsShape = {
  id: intId(),
  created_at: date(),
  from: str(),
  from_id: str(),
  from_name: str(),
  message: str(),
  result: str(),
  to: str(),
  to_id: str(),
  to_name: str(),
  type: str(),
  user_id: int(),
};

export const smsSchema = z.looseObject(smsShape);
export type Sms = z.infer<typeof smsSchema>;

/** Writable fields are name and text; the spec's samples carry the SMS field set, so both are typed. */
export const cannedResponseSchema = z.looseObject({ ...smsShape, name: str(), text: str() });
export type CannedResponse = z.infer<typeof cannedResponseSchema>;

export const faxSchema = z.looseObject({
  id: intId(),
  charge: num(),
  created_at: date(),
  filename: str(),
  from: str(),
  pages: int(),
  status: code(),
  to: str(),
  type: code(),
});
export type Fax = z.infer<typeof faxSchema>;

export const vmAnnouncementSchema = z.looseObject({
  id: intId(),
  created_at: date(),
  description: str(),
  extension: int(),
});
export type VmAnnouncement = z.infer<typeof vmAnnouncementSchema>;
