// Report exports, the building half: catalogue, queries' rows, culture and file formats.
export * from './catalogue';
export * from './codes';
export * from './columns';
export * from './config';
export * from './culture';
export * from './report-rows';
export {
  buildReportFile,
  billingReportQuery,
  copyStatements,
  inlineParameters,
  type BuildOptions,
  type BuiltReport,
} from './build-report';
