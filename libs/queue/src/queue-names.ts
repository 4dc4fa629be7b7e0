/** Every queue of the service. */
export enum QueueName {
  AiLogUpload = 'ai-log-upload',
}

/** Every job, with its payload type in JobPayload. */
export enum JobName {
  UploadAiLog = 'upload-ai-log',
}

export interface JobPayload {
  [JobName.UploadAiLog]: { logId: string };
}
