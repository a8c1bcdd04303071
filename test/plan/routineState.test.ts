import { describe, expect, it } from 'vitest';
import { routineStateOf } from '../../src/kinds/routines/routineState.js';

const AFTER = {
  name: 'Digest',
  prompt: 'Summarise.',
  schedule: '0 8 ? * MON *',
  timezone: 'UTC',
  modelId: 'm-1',
  destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] },
  paused: false,
  topicName: null,
};

describe("a routine step's state", () => {
  it('reads what a plan writes, optional fields only where present', () => {
    expect(routineStateOf(AFTER)).toEqual(AFTER);
    const { topicName: _topic, ...withoutTopic } = AFTER;
    expect('topicName' in routineStateOf(withoutTopic)).toBe(false);
  });

  it('refuses a step edited into another shape, naming the field', () => {
    expect(() => routineStateOf({ ...AFTER, destination: { type: 'slack', recipientId: 'C1', slackRecipientType: 'everyone' } })).toThrow('`destination` is not what a plan writes');
    expect(() => routineStateOf({ ...AFTER, paused: 'no' })).toThrow('`paused`');
    expect(() => routineStateOf({ ...AFTER, schedule: 7 })).toThrow('`schedule`');
  });
});
