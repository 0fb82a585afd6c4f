"""OpenRLHF against `parl serve` as its remote reward model.

Point OpenRLHF at the server:

    --remote_rm_url http://127.0.0.1:4318/get_reward?total-steps=10000

OpenRLHF posts {"query": [...], "prompts": [...], "labels": [...]} and reads "rewards" (and
"scores", "extra_logs"). Put in each sample's label (--label_key) the episode id (rollout id)
under which the agent exported its spans, or a spec section 5 record as JSON. This script makes
the same request OpenRLHF makes, with the standard library, so it can be tried without it.
"""
import json
import sys
import urllib.request

from parl_serve import TOKEN


def remote_rm_fn(api_url, queries, prompts, labels):
    """What OpenRLHF's remote reward call does: one POST, the answer's rewards and logs."""
    headers = {"Content-Type": "application/json"}
    if TOKEN:
        headers["Authorization"] = "Bearer " + TOKEN
    body = json.dumps({"query": queries, "prompts": prompts, "labels": labels}).encode("utf-8")
    request = urllib.request.Request(api_url, data=body, headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read().decode("utf-8"))


if __name__ == "__main__":
    # Demo: the URL as the first argument, the labels on stdin (JSON array of strings).
    labels = json.load(sys.stdin)
    answer = remote_rm_fn(sys.argv[1], ["q%d" % i for i in range(len(labels))], ["p%d" % i for i in range(len(labels))], labels)
    print(json.dumps(answer))
