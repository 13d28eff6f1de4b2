// The Salesforce test server's limits: every API call is counted against the org's 24-hour allowance
// (REQUEST_LIMIT_EXCEEDED beyond it; /limits and the Sforce-Limit-Info header report it), and tests
// may refuse the next calls as over the limit. salesforce-server.ts takes the allowance in its
// onRequest hook after authentication. sObject Collections' 200 records are salesforce-sobjects.ts.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { countLimited, type DailyAllowance, type LimitCounters } from './vendor-limits';

/** Takes an API call from the org's allowance, or answers it 403 REQUEST_LIMIT_EXCEEDED. */
export function apiAllowance(daily: DailyAllowance, counters: LimitCounters) {
  let limitExceeded = 0;
  return {
    take: (reply: FastifyReply): FastifyReply | undefined => {
      if (limitExceeded > 0 || !daily.take()) {
        if (limitExceeded > 0) limitExceeded--;
        countLimited(counters, 'DAILY');
        return reply
          .code(403)
          .send([{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }]);
      }
      void reply.header('sforce-limit-info', `api-usage=${daily.used}/${daily.max}`);
      return undefined;
    },
    limitExceededNext: (count: number) => {
      limitExceeded = count;
    },
  };
}

/** The org's limits (/limits: DailyApiRequests). */
export function registerLimitsRoute(app: FastifyInstance, base: string, daily: DailyAllowance): void {
  app.get(`${base}/limits`, async () => ({
    DailyApiRequests: { Max: daily.max, Remaining: daily.remaining },
  }));
}
