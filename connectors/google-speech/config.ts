import { z } from 'zod';
import { googleCredentialsSchema } from '../google/credentials-config';

const languageCode = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP-47 language code such as en-GB');

/**
 * Transcripts for recordings that have none: Google Speech-to-Text (long-running recognition with
 * speaker diarization) and Natural Language sentiment, written back with PATCH /monitors/{id}.
 */
export const googleTranscriptionConfigSchema = z.object({
  /** The service account (or application default credentials) of the Speech and Language APIs. */
  credentials: googleCredentialsSchema.prefault({}),
  /** The first is the recognition language; up to three more are alternatives Google may pick. */
  languages: z.array(languageCode).min(1).max(4).default(['en-US']),
  /** Speakers to tell apart (diarization): at least `min`, at most `max`. */
  speakers: z
    .object({
      min: z.number().int().min(1).max(6).default(2),
      max: z.number().int().min(1).max(6).default(2),
    })
    .prefault({})
    .refine((s) => s.min <= s.max, { message: 'min must not exceed max', path: ['min'] }),
  /** Cost guard: audio minutes transcribed per calendar month (UTC) and account; no default. */
  monthlyCapMinutes: z.number().positive(),
  /** Recognition model (`phone_call` suits 8 kHz telephone audio; `latest_long` others). */
  model: z.string().min(1).default('phone_call'),
  /** Recordings transcribed at once per account. */
  concurrency: z.number().int().min(1).max(16).default(2),
  /** Speech-to-Text endpoint; only tests point it elsewhere. */
  speechEndpoint: z.url().default('https://speech.googleapis.com'),
  /** Natural Language endpoint; only tests point it elsewhere. */
  languageEndpoint: z.url().default('https://language.googleapis.com'),
  /**
   * Cloud Storage bucket (it must exist) where audio over 60 s or 10 MB is staged for recognition
   * (`transcription/<account>/<recordingId>.mp3`, deleted when done); same credentials as above.
   */
  stagingBucket: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/, 'a Cloud Storage bucket name')
    .optional(),
  /** Cloud Storage API origin of the staging bucket; only tests point it elsewhere (fake-gcs-server). */
  storageEndpoint: z.url().optional(),
});

/** The block as the activities see it: the schema above plus the scheduling fields config/schema.ts adds. */
export type GoogleTranscriptionConfig = z.infer<typeof googleTranscriptionConfigSchema> & {
  maxAge: number;
  every: number;
};
