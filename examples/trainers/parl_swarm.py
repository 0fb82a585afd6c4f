"""Run `parl swarm run` from Python and read its rollout lines back (standard library only).

Every trainer glue file here calls this: the swarm runs as the `parl` command (Node), the lines
come back as dicts (spec §5 records plus `group_id`, `sample`, `advantage`, `messages` and, with
token trajectories, `prompt_ids`, `response_ids`, `response_mask`, `response_logprobs`,
`retokenized_at`, `subagent_messages`).

`PARL_CMD` names the command (default `npx parl`; in this repository `node packages/cli/bin/parl.js`).
"""

import json
import os
import shlex
import subprocess
import tempfile


def run_swarm(base_url, model, suite="wide", seed=1, tasks=1, group_size=1, *, subagent_base_url=None, subagent_model=None,
              subagents=None, token_trajectories=False, reward_url=None, training_step=None, limits=None, api_key=None, extra=()):
    """Run tasks x group_size rollouts; return the lines (task, then sample order). Raises RuntimeError with parl's own message."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rollouts.jsonl")
        args = shlex.split(os.environ.get("PARL_CMD", "npx parl")) + [
            "swarm", "run", "--model", model, "--suite", suite, "--seed", str(seed), "--tasks", str(tasks),
            "--group-size", str(group_size), "--out", out,
        ]
        for flag, value in (("--base-url", base_url), ("--subagent-base-url", subagent_base_url), ("--subagent-model", subagent_model),
                            ("--subagents", subagents), ("--reward-url", reward_url), ("--training-step", training_step), ("--limits", limits)):
            if value is not None:
                args += [flag, str(value)]
        if token_trajectories:
            args.append("--token-trajectories")
        args += list(extra)
        env = dict(os.environ)
        if api_key is not None:
            env["PARL_API_KEY"] = api_key
        done = subprocess.run(args, capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip() or "parl swarm run exited %d" % done.returncode)
        with open(out, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
