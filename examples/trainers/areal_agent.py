"""AReaL: the swarm as an agent workflow in proxy mode (`async run(data, **extra_kwargs)`).

AReaL hands each rollout its own `base_url` and `api_key` on its proxy gateway, which records the
policy's tokens itself (`/rl/start_session`, the chat calls, `/rl/set_reward`, `/rl/end_session`
are its side); the agent only runs and returns the reward. `parl swarm run` reads the key from
`PARL_API_KEY`, passed per rollout (never through the process-wide environment, which concurrent
rollouts would share). `data` names a suite task: `{"suite": "wide", "seed": 17}`.
"""

import asyncio
import os

from parl_swarm import run_swarm


def reward_of(line):
    """What AReaL takes back from a rollout: its scalar reward."""
    return float(line["total_reward"])


class ParlSwarmAgent:
    async def run(self, data, **extra_kwargs):
        [line] = await asyncio.to_thread(
            run_swarm, extra_kwargs["base_url"], os.environ.get("PARL_POLICY_MODEL", "default"), data["suite"], data["seed"],
            api_key=extra_kwargs.get("api_key"), subagent_base_url=os.environ.get("PARL_SUBAGENT_URL"),
            subagent_model=os.environ.get("PARL_SUBAGENT_MODEL"),
        )
        return reward_of(line)
