"""Label RL rollouts with the PARL reward by calling the `parl` command (@parl/cli).

The trainer stays in Python; the reward math stays in one place (@parl/core, behind `parl
reward`). Each rollout is a PARL episode record (spec §5): for example

    {"num_subagents": 8, "completed_subtasks": 7, "success": true, "quality": 0.9,
     "stages": [{"main_steps": 1, "sub_steps": [3, 5, 2]}, {"main_steps": 1}]}

`label_rollouts` sends a batch to `parl reward` as JSONL on stdin, one process per batch, and
returns the labelled records: every field of the input plus `total_reward`, `r_parallel`,
`r_finish`, `r_perf`, `lambda1`, `lambda2`, `instantiation_component`, `finish_component`,
`task_component` (and `critical_steps`, `parallelism`, ... when the record has stages).

Which `parl` runs: the command in the PARL_CLI environment variable (e.g.
"node /path/to/packages/cli/bin/parl.js"), else `parl` on the PATH (`npm install -g @parl/cli`).

Plain Python 3.8+, standard library only. `trl` and `verl` are imported only by the wiring
examples at the bottom, and only when you call them.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

__all__ = [
    "ParlCliError",
    "parl_command",
    "label_rollouts",
    "make_trl_reward_func",
    "compute_score",
    "compute_score_batch",
]

# The reward fields `parl reward` adds (spec §3), in a stable order for logging.
REWARD_FIELDS = (
    "total_reward",
    "r_parallel",
    "r_finish",
    "r_perf",
    "lambda1",
    "lambda2",
    "instantiation_component",
    "finish_component",
    "task_component",
)


class ParlCliError(RuntimeError):
    """`parl reward` refused the input or failed; the message is the CLI's own (it names the
    line, the field path, the value and what was expected)."""


def parl_command() -> List[str]:
    """The command that runs `parl`: $PARL_CLI split like a shell would, else `parl` on PATH."""
    configured = os.environ.get("PARL_CLI", "").strip()
    if configured:
        return shlex.split(configured)
    found = shutil.which("parl")
    if found is None:
        raise ParlCliError(
            "no `parl` command: install it with `npm install -g @parl/cli`, "
            "or set PARL_CLI to a command that runs it"
        )
    return [found]


def label_rollouts(
    records: Sequence[Mapping[str, Any]],
    *,
    step: Optional[int] = None,
    lambda1: Optional[str] = None,
    lambda2: Optional[str] = None,
    max_subagents: Optional[float] = None,
    budget: Optional[float] = None,
    on_budget: Optional[str] = None,
    timeout: float = 120.0,
) -> List[Dict[str, Any]]:
    """Label `records` with the PARL reward in one `parl reward` call; same order, same length.

    step: the training step for every record (else each record's `training_step`, else 0);
    lambda1, lambda2: schedules in short form, e.g. "linear:0.1:0:10000" (default: open-parl's);
    max_subagents, budget, on_budget ("fail" or "truncate"): as the CLI flags of the same name.
    Raises ParlCliError with the CLI's message when a record is bad.
    """
    if not records:
        return []
    args = parl_command() + ["reward", "--format", "jsonl"]
    for flag, value in (
        ("--step", step),
        ("--lambda1", lambda1),
        ("--lambda2", lambda2),
        ("--max-subagents", max_subagents),
        ("--budget", budget),
        ("--on-budget", on_budget),
    ):
        if value is not None:
            args += [flag, str(value)]
    stdin = "".join(json.dumps(dict(record), allow_nan=False) + "\n" for record in records)
    try:
        done = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=timeout, check=False)
    except FileNotFoundError as err:
        raise ParlCliError(f"cannot run {args[0]!r}: {err}") from err
    if done.returncode != 0:
        raise ParlCliError(done.stderr.strip() or f"`parl reward` exited with status {done.returncode}")
    labelled = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(labelled) != len(records):
        raise ParlCliError(f"`parl reward` returned {len(labelled)} records for {len(records)}")
    return labelled


# --------------------------------------------------------------------------------------------
# TRL: an entry of GRPOTrainer(reward_funcs=[...]).
# --------------------------------------------------------------------------------------------


def make_trl_reward_func(
    to_record: Callable[[Any, Any, Mapping[str, Any]], Mapping[str, Any]],
    **label_options: Any,
) -> Callable[..., List[float]]:
    """A TRL reward function: GRPOTrainer calls it with `prompts`, `completions` and every other
    dataset column as keyword arguments (one list entry per completion), plus `trainer_state`
    in recent TRL versions. `to_record(prompt, completion, row)` turns one completion into a
    PARL episode record (row: that completion's values of the other keyword arguments).
    The whole batch is labelled in one `parl reward` call at the trainer's global step.
    """

    def parl_reward(prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> List[float]:
        state = kwargs.pop("trainer_state", None)
        step = getattr(state, "global_step", None)
        columns = {k: v for k, v in kwargs.items() if isinstance(v, (list, tuple)) and len(v) == len(completions)}
        records = [
            to_record(prompt, completion, {k: v[i] for k, v in columns.items()})
            for i, (prompt, completion) in enumerate(zip(prompts, completions))
        ]
        options = dict(label_options)
        if step is not None and "step" not in options:
            options["step"] = step
        return [float(r["total_reward"]) for r in label_rollouts(records, **options)]

    parl_reward.__name__ = "parl_reward"  # TRL logs each reward function under its __name__
    return parl_reward


# --------------------------------------------------------------------------------------------
# verl: custom_reward_function.path=parl_rewards.py, custom_reward_function.name=compute_score
# --------------------------------------------------------------------------------------------


def _record_from_extra_info(extra_info: Optional[Mapping[str, Any]]) -> Mapping[str, Any]:
    if not extra_info or "parl_record" not in extra_info:
        raise ParlCliError("extra_info['parl_record'] must hold the rollout's PARL episode record")
    return extra_info["parl_record"]


def _score(labelled: Mapping[str, Any]) -> Dict[str, float]:
    # verl uses "score" as the reward and logs the other keys as reward_extra_info.
    return {"score": float(labelled["total_reward"]), **{k: float(labelled[k]) for k in REWARD_FIELDS}}


def compute_score(
    data_source: Any,
    solution_str: str,
    ground_truth: Any,
    extra_info: Optional[Mapping[str, Any]] = None,
    **label_options: Any,
) -> Dict[str, float]:
    """verl's per-sample reward hook. The rollout's PARL record travels in
    extra_info["parl_record"] (and its step in extra_info["global_step"], when you add it)."""
    record = _record_from_extra_info(extra_info)
    step = (extra_info or {}).get("global_step")
    if step is not None and "step" not in label_options:
        label_options["step"] = step
    return _score(label_rollouts([record], **label_options)[0])


def compute_score_batch(
    data_sources: Sequence[Any],
    solution_strs: Sequence[str],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[Optional[Mapping[str, Any]]],
    **label_options: Any,
) -> List[Dict[str, float]]:
    """The same for verl's batch reward manager (reward_model.reward_manager=batch): one
    `parl reward` process for the whole batch instead of one per sample."""
    records = [_record_from_extra_info(info) for info in extra_infos]
    return [_score(r) for r in label_rollouts(records, **label_options)]


def trl_trainer_example(model_name: str, dataset: Any) -> Any:
    """How the TRL wiring looks (needs `pip install trl`; not run by the tests)."""
    from trl import GRPOConfig, GRPOTrainer  # imported only when used

    def to_record(prompt: Any, completion: Any, row: Mapping[str, Any]) -> Mapping[str, Any]:
        # Your environment decides how a completion becomes an episode record; here the
        # dataset carries a column "parl_record" filled by the rollout logger.
        return row["parl_record"]

    return GRPOTrainer(
        model=model_name,
        reward_funcs=[make_trl_reward_func(to_record)],
        args=GRPOConfig(output_dir="grpo-parl"),
        train_dataset=dataset,
    )


if __name__ == "__main__":
    import sys

    # python3 parl_rewards.py rollouts.jsonl [step]: print each record's per-term fields.
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "rollouts.jsonl")
    with open(path, encoding="utf-8") as handle:
        rollouts = [json.loads(line) for line in handle if line.strip()]
    at_step = int(sys.argv[2]) if len(sys.argv) > 2 else None
    for row in label_rollouts(rollouts, step=at_step):
        terms = "  ".join(f"{k} {row[k]:.4f}" for k in REWARD_FIELDS)
        print(f"{row.get('id', '?')}: {terms}")
