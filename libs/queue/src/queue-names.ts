/** Every queue of the service. */
export enum QueueName {
  AiLogUpload = 'ai-log-upload',
}

/** Every job, with its payload type in JobPayload. */
export enum JobName {
  /** One attempt at uploading one log. */
  UploadAiLog = 'upload-ai-log',
  /** The first attempts of the logs one ingest transaction committed. */
  QueueAiLogs = 'queue-ai-logs',
}

export interface JobPayload {
  [JobName.UploadAiLog]: { logId: string };
  [JobName.QueueAiLogs]: { logIds: string[] };
}
