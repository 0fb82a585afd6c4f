"""verl custom reward function backed by `parl serve`.

In the verl config:

    custom_reward_function:
      path: examples/serve-clients/verl_reward.py
      name: compute_score

verl calls compute_score(data_source, solution_str, ground_truth, extra_info) per sample. Here
`ground_truth` names the episode: a rollout id or trace id the agent app exported its spans
under, or a spec section 5 record as JSON. `extra_info` may carry "outcome" ({"success": ...,
"quality": ...} or {"r_perf": ...}) and "training_step". Returns a dict with "score" (verl's
reward) and the PARL terms, which verl logs.
"""
import json
import sys

from parl_serve import get_reward, post


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    extra_info = extra_info or {}
    query = {}
    if "training_step" in extra_info:
        query["training_step"] = str(extra_info["training_step"])
    outcome = extra_info.get("outcome")
    if outcome is not None and not ground_truth.lstrip().startswith("{"):
        # A traced episode: post its outcome, get its labelled record back.
        from urllib.parse import quote

        labelled = post("/v1/episodes/" + quote(ground_truth, safe="") + "/outcome", outcome, query)
        return {"score": labelled["total_reward"], "r_parallel": labelled["r_parallel"], "r_finish": labelled["r_finish"], "r_perf": labelled["r_perf"]}
    answer = get_reward([ground_truth], **query)
    logs = answer["extra_logs"]
    return {"score": answer["rewards"][0], "r_parallel": logs["r_parallel"][0], "r_finish": logs["r_finish"][0], "r_perf": logs["r_perf"][0]}


if __name__ == "__main__":
    # Demo: score the samples named on stdin (one JSON [ground_truth, extra_info] per line).
    out = [compute_score("parl", "", *json.loads(line)) for line in sys.stdin if line.strip()]
    print(json.dumps(out))
