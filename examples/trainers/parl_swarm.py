"""Run `parl swarm run` from Python and read its rollout lines back (standard library only).

Every trainer glue file here calls this: the swarm runs as the `parl` command (Node), the lines
come back as dicts (spec §5 records plus `group_id`, `sample`, `advantage`, `messages` and, with
token trajectories, `prompt_ids`, `response_ids`, `response_mask`, `response_logprobs`,
`subagent_messages`, and `retokenized_at` where a chat endpoint re-rendered a turn; with token in,
`--token-in`, the fields are exact by construction and `retokenized_at` never appears).

`PARL_CMD` names the command (default `npx parl`; in this repository `node packages/cli/bin/parl.js`).
`token_in_from_env()` reads token in's settings from `PARL_TOKENIZER` (the policy's model folder),
`PARL_CHAT_TEMPLATE`, `PARL_TOOL_CALL_PARSER`, `PARL_REASONING_PARSER` and `PARL_MAX_MODEL_LEN`.
"""

import json
import os
import shlex
import subprocess
import tempfile


def run_swarm(base_url, model, suite="wide", seed=1, tasks=1, group_size=1, *, subagent_base_url=None, subagent_model=None,
              subagents=None, token_trajectories=False, token_in=None, reward_url=None, training_step=None, limits=None, api_key=None, extra=()):
    """Run tasks x group_size rollouts; return the lines (task, then sample order). Raises RuntimeError with parl's own message.

    `token_in`: a dict with `tokenizer` (the model folder) and optionally `chat_template`, `tool_call_parser`,
    `reasoning_parser`, `max_model_len`: the orchestrator's conversation is held as token ids (`--token-in`).
    """
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
        args += token_in_flags(token_in)
        args += list(extra)
        env = dict(os.environ)
        if api_key is not None:
            env["PARL_API_KEY"] = api_key
        done = subprocess.run(args, capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip() or "parl swarm run exited %d" % done.returncode)
        with open(out, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]


def token_in_flags(token_in):
    """The `parl swarm run` flags of a token-in dict (none for None)."""
    if not token_in:
        return []
    args = ["--token-in", "--tokenizer", str(token_in["tokenizer"])]
    for key in ("chat_template", "tool_call_parser", "reasoning_parser", "max_model_len"):
        if token_in.get(key) is not None:
            args += ["--" + key.replace("_", "-"), str(token_in[key])]
    return args


def token_in_from_env(env=None):
    """Token in's settings from PARL_TOKENIZER and its siblings, or None when PARL_TOKENIZER is unset (chat mode)."""
    env = os.environ if env is None else env
    if not env.get("PARL_TOKENIZER"):
        return None
    return {
        "tokenizer": env["PARL_TOKENIZER"],
        "chat_template": env.get("PARL_CHAT_TEMPLATE"),
        "tool_call_parser": env.get("PARL_TOOL_CALL_PARSER"),
        "reasoning_parser": env.get("PARL_REASONING_PARSER"),
        "max_model_len": env.get("PARL_MAX_MODEL_LEN"),
    }
