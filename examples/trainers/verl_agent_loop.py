"""verl: the swarm as an agent loop (`AgentLoopBase.run` -> `AgentLoopOutput`).

verl trains on token ids, so the rollout runs with `--token-trajectories`: the orchestrator's
`prompt_ids`, `response_ids`, `response_mask` (1 = the policy's tokens, 0 = tool results) and
`response_logprobs` come from the ids the endpoint returned, never re-tokenised (verl's docs warn
that re-tokenising kept PPO from converging). Sub-agents are frozen: only the orchestrator's tokens
are trained. `PARL_POLICY_URL` must serve the current policy over the OpenAI API with vLLM's
`return_token_ids` (verl's rollout server, or a vLLM server it syncs weights to); the dataset rows
name a suite task in `extra_info` (`{"suite": "wide", "seed": 17}`). On a real chat template (Qwen3's
drops earlier reasoning) set `PARL_TOKENIZER` to the policy's model folder: the rollout then runs with
`--token-in` (completions on token ids, `PARL_TOOL_CALL_PARSER` / `PARL_REASONING_PARSER` naming vLLM's
parsers), so every call's prompt extends the last and the whole episode trains, not its first call.

Register with `agent_name: parl_swarm` in the dataset and this module in `agent_loop_config_path`.
"""

import asyncio
import os

from parl_swarm import run_swarm, token_in_from_env


def agent_loop_fields(line, response_length):
    """The AgentLoopOutput fields of one rollout line, the response cut to `response_length` tokens."""
    n = min(len(line["response_ids"]), response_length)
    return {
        "prompt_ids": line["prompt_ids"],
        "response_ids": line["response_ids"][:n],
        "response_mask": line["response_mask"][:n],
        "response_logprobs": line["response_logprobs"][:n],
        "reward_score": line["total_reward"],
        "num_turns": len(line["stages"]),
        "extra_fields": {k: line.get(k) for k in ("critical_steps", "num_subagents", "r_perf", "end_reason", "retokenized_at")},
    }


try:
    from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register
except ImportError:  # verl is not installed: agent_loop_fields still serves (and is tested) alone
    AgentLoopBase = None

if AgentLoopBase is not None:

    @register("parl_swarm")
    class ParlSwarmAgentLoop(AgentLoopBase):
        async def run(self, sampling_params, **kwargs):
            task = kwargs["extra_info"]
            [line] = await asyncio.to_thread(
                run_swarm, os.environ["PARL_POLICY_URL"], os.environ.get("PARL_POLICY_MODEL", "policy"), task["suite"], task["seed"],
                subagent_base_url=os.environ.get("PARL_SUBAGENT_URL"), subagent_model=os.environ.get("PARL_SUBAGENT_MODEL"),
                token_trajectories=True, token_in=token_in_from_env(), training_step=kwargs.get("global_steps", 0),
            )
            return AgentLoopOutput(**agent_loop_fields(line, self.config.actor_rollout_ref.rollout.response_length), metrics={})
