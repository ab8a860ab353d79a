import { toAwsCronExpression } from '@reprise/functions/scheduling/aws-cron';
import { describe, expect, it } from 'vitest';

describe('toAwsCronExpression', () => {
  it.each([
    // Neither day field restricted: day-of-month carries *, day-of-week must be ?.
    ['* * * * *', 'cron(* * * * ? *)'],
    ['*/15 * * * *', 'cron(0/15 * * * ? *)'],
    ['0 */6 * * *', 'cron(0 0/6 * * ? *)'],
    ['5-59/10 * * * *', 'cron(5/10 * * * ? *)'],
    ['0-30/10 * * * *', 'cron(0,10,20,30 * * * ? *)'],
    ['0 9 * * *', 'cron(0 9 * * ? *)'],
    // Day of month restricted: day-of-week becomes ?.
    ['30 2 1,15 * *', 'cron(30 2 1,15 * ? *)'],
    ['0 0 */2 * *', 'cron(0 0 1/2 * ? *)'],
    ['0 0 1 jan-mar,dec *', 'cron(0 0 1 1-3,12 ? *)'],
    ['0 0 1 */3 *', 'cron(0 0 1 1/3 ? *)'],
    // Day of week restricted: day-of-month becomes ?, weekdays as names (AWS counts 1-7 from SUN).
    ['0 9 * * 1-5', 'cron(0 9 ? * MON-FRI *)'],
    ['0 9 * * MON-FRI', 'cron(0 9 ? * MON-FRI *)'],
    ['0 9 * * 0', 'cron(0 9 ? * SUN *)'],
    ['0 9 * * 7', 'cron(0 9 ? * SUN *)'],
    ['0 9 * * 5-7', 'cron(0 9 ? * SUN,FRI-SAT *)'],
    ['0 9 * * */2', 'cron(0 9 ? * SUN,TUE,THU,SAT *)'],
    ['0 9 * * 0-6', 'cron(0 9 ? * * *)'],
    ['0,30 8-17 * * 1,3,5', 'cron(0,30 8-17 ? * MON,WED,FRI *)'],
    ['0-59 0-23 1-31 1-12 *', 'cron(* * * * ? *)'],
  ])('%s → %s', (cron, aws) => {
    expect(toAwsCronExpression(cron)).toBe(aws);
  });
});
