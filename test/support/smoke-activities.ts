/** Activities for the Temporal smoke test; the pid proves the activity ran in the worker's process. */
export function createSmokeActivities() {
  return {
    async describeCall(callId: number): Promise<string> {
      return `call ${callId} handled by pid ${process.pid}`;
    },
  };
}
export type SmokeActivities = ReturnType<typeof createSmokeActivities>;
