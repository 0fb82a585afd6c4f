"""TRL reward function backed by `parl serve` (GRPOTrainer(reward_funcs=[parl_reward], ...)).

TRL calls reward functions with the prompts, the completions and every other dataset column as
a keyword list. This one reads the column "parl_record" (a spec section 5 record per sample, as a
dict or JSON text: how many sub-agents the rollout launched, its stages, its outcome) and returns
the PARL total reward per sample, labelled in one batch by POST /v1/rewards.
"""
import json
import sys

from parl_serve import rewards


def parl_reward(prompts, completions, parl_record=None, trainer_state=None, **kwargs):
    if parl_record is None:
        raise ValueError("parl_reward needs a 'parl_record' column in the dataset")
    records = [json.loads(r) if isinstance(r, str) else r for r in parl_record]
    query = {}
    if trainer_state is not None and getattr(trainer_state, "global_step", None) is not None:
        query["training_step"] = trainer_state.global_step
    return [r["total_reward"] for r in rewards(records, **query)]


if __name__ == "__main__":
    # Demo: one batch of records on stdin (JSON array), training step as the first argument.
    records = json.load(sys.stdin)

    class State:
        global_step = int(sys.argv[1]) if len(sys.argv) > 1 else None

    print(json.dumps(parl_reward([""] * len(records), [""] * len(records), parl_record=records, trainer_state=State())))
