"""slime: the swarm as a custom generate function (`--custom-generate-function-path
slime_generate.generate --custom-rm-path slime_generate.reward_func`).

The orchestrator runs on slime's SGLang router (its OpenAI API) and the frozen sub-agents on their
own engine (`PARL_SUBAGENT_URL`), as the OpenPARL reproduction ran it. The sample gets the
orchestrator's tokens and loss mask from `--token-trajectories` (the router must return the
prompt's and completion's token ids, as vLLM's `return_token_ids` does) and the PARL reward.
Samples name a suite task in `metadata` (`{"suite": "wide", "seed": 17}`). With `PARL_TOKENIZER` set to the
policy's model folder the rollout runs with `--token-in` on the router's `/v1/completions` (SGLang's
`return_token_ids`), so the tokens are exact for the whole episode, not up to `retokenized_at`.
"""

import asyncio
import os

from parl_swarm import run_swarm, token_in_from_env


def fill_sample(sample, line):
    """Put one rollout line into a slime Sample: tokens, response length, loss mask, log-probs, reward."""
    sample.tokens = line["prompt_ids"] + line["response_ids"]
    sample.response_length = len(line["response_ids"])
    sample.loss_mask = line["response_mask"]
    sample.rollout_log_probs = line["response_logprobs"]
    sample.reward = line["total_reward"]
    sample.metadata = {**(sample.metadata or {}), "parl": {k: line.get(k) for k in ("critical_steps", "num_subagents", "r_perf", "end_reason", "retokenized_at")}}
    return sample


async def generate(args, sample, sampling_params):
    [line] = await asyncio.to_thread(
        run_swarm, "http://%s:%s/v1" % (args.sglang_router_ip, args.sglang_router_port), os.environ.get("PARL_POLICY_MODEL", "default"),
        sample.metadata["suite"], sample.metadata["seed"], subagent_base_url=os.environ.get("PARL_SUBAGENT_URL"),
        subagent_model=os.environ.get("PARL_SUBAGENT_MODEL"), token_trajectories=True, token_in=token_in_from_env(),
    )
    fill_sample(sample, line)
    from slime.utils.types import Sample
    sample.status = Sample.Status.COMPLETED
    return sample


async def reward_func(args, sample, **kwargs):
    return sample.reward
