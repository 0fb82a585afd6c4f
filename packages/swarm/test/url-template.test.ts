import { ParlInputError, resolveOptions } from '@parl/core';
import { describe, expect, it } from 'vitest';
import { SWARM_RUN_OPTIONS } from '../src/index.js';
import { checkUrlTemplate, expandUrl } from '../src/rollouts/url-template.js';
import { endpointSettings } from '../src/jobs/episode-settings.js';

describe('URL templates of a rollout', () => {
  it('expand {rollout_id}, {task_id} and {sample}, each percent-encoded as a path segment', () => {
    const ref = { rollout_id: 'wide-s1-0/rollout-2', task_id: 'wide-s1-0', sample: 2 };
    expect(expandUrl('http://gw:9090/sessions/{rollout_id}/v1', ref)).toBe('http://gw:9090/sessions/wide-s1-0%2Frollout-2/v1');
    expect(expandUrl('http://gw/rollout/{task_id}/attempt/{sample}/v1', ref)).toBe('http://gw/rollout/wide-s1-0/attempt/2/v1');
    expect(expandUrl('http://gw/v1', ref)).toBe('http://gw/v1');
  });

  it('a bad template is one error naming the flag, the text and what was expected', () => {
    expect(() => checkUrlTemplate('http://gw/{session}/v1', '--base-url')).toThrow(ParlInputError);
    expect(() => checkUrlTemplate('http://gw/{session}/v1', '--base-url')).toThrow(/--base-url.*\{rollout_id\}, \{task_id\}, \{sample\} \(got \{session\}\)/);
    expect(() => checkUrlTemplate('ftp://gw/{sample}', '--reward-url')).toThrow(/--reward-url.*an http\(s\) URL/);
    expect(() => checkUrlTemplate('http://gw/{sample/v1', '--base-url')).toThrow(/--base-url/);
    expect(checkUrlTemplate('http://gw/sessions/{rollout_id}/v1/', '--base-url')).toBe('http://gw/sessions/{rollout_id}/v1');
    expect(() => resolveOptions(SWARM_RUN_OPTIONS, { model: 'm', 'reward-url': 'http://x/{id}' }, 'flag')).toThrow(/--reward-url/);
  });

  it('a template with nothing to expand it for (an evaluation setting without a rollout) is an error, not a literal URL', () => {
    expect(() => endpointSettings({ baseUrl: 'http://gw/sessions/{rollout_id}/v1', model: 'm', subagents: 'llm', concurrency: 1, limits: 'default' })).toThrow(/--base-url/);
  });
});
