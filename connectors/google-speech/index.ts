// Transcripts for recordings without one: Speech-to-Text, Natural Language, and the pure mapping.
export * from './config';
export * from './google-speech';
export * from './mp3-info';
export * from './transcript';
export * from './audio-staging';
