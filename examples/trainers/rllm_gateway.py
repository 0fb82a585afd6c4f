"""rLLM: the swarm behind rLLM's model gateway (`/sessions/{sid}/v1`).

The gateway records every call's `prompt_token_ids`, `completion_token_ids` and log-probs per
session; the trainer reads them back with `GET /sessions/{sid}/traces` and takes the reward from
the line. One session per rollout: either create it with the gateway's client (below), or give
`parl swarm run` the template `--base-url http://GATEWAY/sessions/{rollout_id}/v1` when the
gateway takes the client's session ids — then each line's `id` is its session.
"""

import json
import os
import urllib.parse
import urllib.request

from parl_swarm import run_swarm


def session_rollout(gateway_url, session_url, session_id, suite, seed):
    """Run one rollout on a session's URL; return its traces (as the gateway recorded them) and reward."""
    [line] = run_swarm(session_url, os.environ.get("PARL_POLICY_MODEL", "default"), suite, seed,
                       subagent_base_url=os.environ.get("PARL_SUBAGENT_URL"), subagent_model=os.environ.get("PARL_SUBAGENT_MODEL"))
    url = "%s/sessions/%s/traces" % (gateway_url.rstrip("/"), urllib.parse.quote(session_id, safe=""))
    with urllib.request.urlopen(url) as res:
        traces = json.loads(res.read().decode("utf-8"))
    return {"session_id": session_id, "traces": traces, "reward": line["total_reward"], "record": line}


def rollout(gateway_url, suite, seed):
    from rllm_model_gateway import GatewayClient
    client = GatewayClient(gateway_url)
    sid = client.create_session()
    return session_rollout(gateway_url, client.get_session_url(sid), sid, suite, seed)
