"""A tiny client for `parl serve` using only the Python standard library (urllib, json).

Shared by the verl, TRL and OpenRLHF examples beside it. The server is PARL_SERVE_URL
(default http://127.0.0.1:4318); PARL_SERVE_TOKEN, when set, is sent as a bearer token. A busy
server answers 503 with Retry-After: the request is sent again after that long (with jitter), up to
PARL_SERVE_RETRIES times (default 8).
"""
import json
import os
import random
import time
import urllib.error
import urllib.parse
import urllib.request

URL = os.environ.get("PARL_SERVE_URL", "http://127.0.0.1:4318").rstrip("/")
TOKEN = os.environ.get("PARL_SERVE_TOKEN")
RETRIES = int(os.environ.get("PARL_SERVE_RETRIES", "8"))


class ParlServeError(RuntimeError):
    """An error answer of the server: its status and message."""

    def __init__(self, status, message):
        super().__init__(f"parl serve answered {status}: {message}")
        self.status = status


def post(path, body, query=None, content_type="application/json", timeout=30):
    """POST a JSON value (or text, for NDJSON) and return the parsed answer."""
    qs = "?" + urllib.parse.urlencode(query) if query else ""
    data = body.encode("utf-8") if isinstance(body, str) else json.dumps(body).encode("utf-8")
    headers = {"content-type": content_type}
    if TOKEN:
        headers["authorization"] = "Bearer " + TOKEN
    request = urllib.request.Request(URL + path + qs, data=data, headers=headers, method="POST")
    attempt = 0
    while True:
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                text = response.read().decode("utf-8")
            break
        except urllib.error.HTTPError as err:
            message = err.read().decode("utf-8", "replace")
            if err.code == 503 and attempt < RETRIES:
                # Busy (load shedding): wait as the server asks, with jitter so clients spread out.
                attempt += 1
                time.sleep(min(float(err.headers.get("Retry-After") or 1), 30.0) * (0.5 + random.random()))
                continue
            try:
                message = json.loads(message).get("error", message)
            except ValueError:
                pass
            raise ParlServeError(err.code, message) from None
    if content_type == "application/x-ndjson":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return json.loads(text)


def rewards(records, **query):
    """POST /v1/rewards: spec section 5 records in, the labelled records out (NDJSON both ways)."""
    body = "".join(json.dumps(r) + "\n" for r in records)
    return post("/v1/rewards", body, {k.replace("_", "-") if k != "training_step" else k: str(v) for k, v in query.items()}, "application/x-ndjson")


def get_reward(labels, queries=None, prompts=None, **query):
    """POST /get_reward (OpenRLHF's protocol): labels are episode ids or records as JSON text."""
    labels = [l if isinstance(l, str) else json.dumps(l) for l in labels]
    body = {"query": queries or [""] * len(labels), "prompts": prompts or [""] * len(labels), "labels": labels}
    return post("/get_reward", body, {k.replace("_", "-") if k != "training_step" else k: str(v) for k, v in query.items()})
