// Real bytes for the binary endpoints: MP3 audio, PCAP captures, SIP traces, CSV exports and PDFs.
export { mp3Tone, toneFrequency, MP3_FORMAT, type Mp3ToneOptions } from './mp3';
export { pcapFile, PCAP_MAGIC } from './pcap';
export { sipTrace } from './sip-trace';
export { sipDialog, type SipDialog, type SipMessage } from './sip-dialog';
export { cdrsCsv, csvField } from './csv';
export { textPdf } from './pdf';
