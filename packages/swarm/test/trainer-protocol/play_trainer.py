"""Play the trainer against `parl swarm run`, with the Python standard library only.

What a trainer with a gateway per rollout does (rLLM's `/sessions/{sid}/v1`, Agent Lightning's
`/rollout/{rid}/attempt/{aid}/v1`): give each rollout its own base URL, let the runtime make its
chat calls there, and read back what the gateway recorded. This script starts `parl swarm run`
with a URL template, reads the rollout lines, and checks each line's token trajectory (spec
§10.4) and reward against the gateway's own record:

- one gateway session per rollout, named by the line's `id`, holding exactly the orchestrator's
  model calls (one per stage);
- `prompt_ids` is the first call's prompt; `response_ids`, `response_mask` and
  `response_logprobs` are rebuilt here from the recorded calls (each completion with mask 1 and
  its log-probabilities, then what the next prompt adds with mask 0), and must be equal,
  element for element; a call whose prompt does not begin with the previous prompt and
  completion must be the line's `retokenized_at`, and nothing after it is in the trajectory;
- the reward the runtime POSTed for the rollout equals the line's;
- the frozen sub-agents' calls went to the other endpoint: as many as the lines' sub-agent steps.

Usage: play_trainer.py --parl "node /path/to/parl.js" --gateway URL --model NAME --out FILE
Exits 0 and prints one `ok:` line when every check holds; else prints what failed and exits 1.
"""

import argparse
import json
import shlex
import subprocess
import sys
import urllib.parse
import urllib.request


def get(url):
    with urllib.request.urlopen(url, timeout=60) as res:
        return json.loads(res.read().decode("utf-8"))


def expected_trajectory(calls):
    """Spec §10.4, from the gateway's calls: (prompt_ids, response_ids, mask, logprobs, retokenized_at)."""
    prompt_ids = list(calls[0]["prompt_token_ids"])
    ids, mask, logprobs = [], [], []
    conversation = prompt_ids
    for k, call in enumerate(calls):
        prompt = call["prompt_token_ids"]
        if prompt[: len(conversation)] != conversation:
            return prompt_ids, ids, mask, logprobs, k
        added = prompt[len(conversation):]
        ids += added
        mask += [0] * len(added)
        logprobs += [0] * len(added)
        ids += call["completion_token_ids"]
        mask += [1] * len(call["completion_token_ids"])
        logprobs += call["logprobs"]
        conversation = prompt + call["completion_token_ids"]
    return prompt_ids, ids, mask, logprobs, None


def subagent_steps(entries):
    total = 0
    for entry in entries:
        if isinstance(entry, (int, float)):
            total += entry
        elif "stages" in entry:
            for stage in entry["stages"]:
                total += stage["main_steps"] + subagent_steps(stage["sub_steps"])
        else:
            total += entry["steps"]
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parl", required=True, help="the command that runs parl, e.g. 'node packages/cli/bin/parl.js'")
    ap.add_argument("--gateway", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--tasks", default="1")
    ap.add_argument("--group-size", default="2")
    args = ap.parse_args()
    gw = args.gateway.rstrip("/")

    command = shlex.split(args.parl) + [
        "swarm", "run",
        "--base-url", gw + "/sessions/{rollout_id}/v1",
        "--model", args.model,
        "--subagent-base-url", gw + "/frozen/v1",
        "--reward-url", gw + "/sessions/{rollout_id}/reward",
        "--token-trajectories",
        "--suite", "deep", "--tasks", args.tasks, "--group-size", args.group_size,
        "--limits", "browsecomp", "--out", args.out,
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if run.returncode != 0:
        print("parl swarm run failed (%d): %s" % (run.returncode, run.stderr.strip()))
        return 1

    with open(args.out, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    problems = []
    expected_rollouts = int(args.tasks) * int(args.group_size)
    if len(lines) != expected_rollouts:
        problems.append("%d lines, expected %d" % (len(lines), expected_rollouts))

    sessions = get(gw + "/sessions")
    if sorted(sessions) != sorted(line["id"] for line in lines):
        problems.append("sessions %s are not the rollouts %s" % (sorted(sessions), sorted(line["id"] for line in lines)))

    calls_total = tokens_total = retokenized = 0
    for line in lines:
        sid = line["id"]
        where = "rollout %s" % sid
        calls = get(gw + "/sessions/" + urllib.parse.quote(sid, safe="") + "/traces")
        calls_total += len(calls)
        main_steps = sum(stage["main_steps"] for stage in line["stages"])
        if len(calls) != main_steps:
            problems.append("%s: the gateway saw %d calls, the line has %d orchestrator steps" % (where, len(calls), main_steps))
            continue
        prompt_ids, ids, mask, logprobs, at = expected_trajectory(calls)
        n = len(line["response_ids"])
        if not (n == len(line["response_mask"]) == len(line["response_logprobs"])):
            problems.append("%s: response_ids, response_mask and response_logprobs differ in length" % where)
        if line["prompt_ids"] != prompt_ids:
            problems.append("%s: prompt_ids are not the first call's prompt" % where)
        if line["response_ids"] != ids:
            problems.append("%s: response_ids differ from the gateway's tokens" % where)
        if line["response_mask"] != mask:
            problems.append("%s: response_mask differs" % where)
        if line["response_logprobs"] != logprobs:
            problems.append("%s: response_logprobs differ from the endpoint's" % where)
        if line.get("retokenized_at") != at:
            problems.append("%s: retokenized_at is %r, the gateway's calls say %r" % (where, line.get("retokenized_at"), at))
        completions = sum(len(c["completion_token_ids"]) for c in calls[: len(calls) if at is None else at])
        if sum(line["response_mask"]) != completions:
            problems.append("%s: %d mask-1 tokens for %d completion tokens" % (where, sum(line["response_mask"]), completions))
        if at is not None:
            retokenized += 1
        tokens_total += len(prompt_ids) + n
        rewards = get(gw + "/sessions/" + urllib.parse.quote(sid, safe="") + "/rewards")
        if len(rewards) != 1:
            problems.append("%s: %d reward reports" % (where, len(rewards)))
        elif rewards[0].get("reward") != line["total_reward"] or rewards[0].get("r_perf") != line["r_perf"] or rewards[0].get("rollout_id") != sid:
            problems.append("%s: the reward report %s does not match the line" % (where, json.dumps(rewards[0])))
        if not isinstance(line.get("subagent_messages"), list):
            problems.append("%s: no subagent_messages" % where)

    frozen = get(gw + "/frozen/calls")["calls"]
    sub_steps = sum(subagent_steps(stage["sub_steps"]) for line in lines for stage in line["stages"])
    if frozen != sub_steps:
        problems.append("the frozen endpoint saw %d calls, the lines have %d sub-agent steps" % (frozen, sub_steps))

    if problems:
        for p in problems:
            print(p)
        return 1
    print("ok: %d rollouts, %d sessions, %d orchestrator calls, %d tokens, %d retokenized, %d sub-agent calls on the frozen endpoint"
          % (len(lines), len(sessions), calls_total, tokens_total, retokenized, frozen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
