"""ART: a trajectory group per task (`art.TrajectoryGroup` of `art.Trajectory`).

`parl swarm run --group-size G` gives G rollouts of one task on the model ART serves
(`model.inference_base_url`, `model.get_inference_name()`); each becomes a Trajectory: the
orchestrator's transcript as `messages_and_choices`, the PARL reward, the episode's numbers as
`metrics`, and each sub-agent's transcript in `additional_histories` (frozen: recorded, not
trained). ART tokenises messages itself with the model's chat template.
"""

from parl_swarm import run_swarm


def trajectory_fields(line):
    """The Trajectory fields of one rollout line (run with --token-trajectories for subagent_messages)."""
    return {
        "messages_and_choices": line["messages"],
        "reward": line["total_reward"],
        "metrics": {k: float(line[k]) for k in ("critical_steps", "num_subagents", "r_perf", "r_parallel", "r_finish")},
        "additional_histories": [s["messages"] for s in line.get("subagent_messages", [])],
        "metadata": {"rollout_id": line["id"], "task_id": line["task_id"]},
    }


def trajectory_group(model, suite, seed, group_size):
    import art
    lines = run_swarm(model.inference_base_url, model.get_inference_name(), suite, seed, group_size=group_size,
                      api_key=model.inference_api_key, token_trajectories=False)
    groups = []
    for line in lines:
        fields = trajectory_fields(line)
        histories = [art.History(messages_and_choices=h) for h in fields.pop("additional_histories")]
        groups.append(art.Trajectory(**fields, additional_histories=histories))
    return art.TrajectoryGroup(groups)
