"""An OpenAI-compatible chat-completions stub on 127.0.0.1, in a thread, for the LVLM tests.

The stub answers by the image it receives: `script` maps the SHA-256 of the image bytes (the
data URL's payload) to a behaviour: an answer text, ("refusal", text) for an API-level refusal,
("http", code) for an HTTP error, ("sleep", seconds) for a reply that comes too late,
("retry_after", seconds, text) for HTTP 429 with that Retry-After header on the first request
of the image and `text` afterwards, ("length", text) for an answer cut by the budget, ("cut",) for a reply whose connection closes
after its headers and part of its body (a server dying mid-reply). Unknown
images get "Male". Alternatively `responder(image_bytes, prompt)` returns the behaviour. Every
request is counted per image hash (with its arrival time), and `most_in_flight` is the most
requests it held unanswered at once. `/models` lists `models`. With
`wants="max_completion_tokens"` a request carrying `max_tokens` is refused with HTTP 400, as
OpenAI's newer models refuse it. With `models=None` the server has no `/models` route (HTTP
404), and with `strict_model=True` a request for a model it does not serve gets HTTP 404 (as
vLLM answers). A request carrying a structured-output constraint is honoured: an OpenAI
`response_format` JSON schema gets `{"answer": <option>}`, vLLM's `guided_choice` the option
itself, the option being the one the scripted text starts with (else the first).

Run as a script (`python tests/lvlm_stub.py SCRIPT.json PORTFILE`) it serves until killed, for
the test that kills a run mid-way.
"""

from __future__ import annotations

import base64
import collections
import hashlib
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def image_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _honour_constraint(payload: dict, text: str) -> str:
    """The text a server that honours the request's structured-output constraint returns."""
    schema = ((payload.get("response_format") or {}).get("json_schema") or {}).get("schema")
    options = (schema["properties"]["answer"]["enum"] if schema
               else payload.get("guided_choice"))
    if not options:
        return text
    chosen = next((o for o in options if text.strip().lower().startswith(o.lower())),
                  options[0])
    return json.dumps({"answer": chosen}) if schema else chosen


class Stub:
    def __init__(self, script=None, *, delay: float = 0.0, responder=None,
                 models=("stub-model",), wants: str = "max_tokens",
                 strict_model: bool = False):
        self.script, self.delay, self.responder = dict(script or {}), delay, responder
        self.models, self.wants = (None if models is None else list(models)), wants
        self.strict_model = strict_model
        self.times = collections.defaultdict(list)
        self.calls = collections.Counter()
        self.prompts = []
        self.payloads = []  # every chat-completions request body, as sent
        self.in_flight = self.most_in_flight = 0
        self.lock = threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if stub.models is None:
                    self._send(404, b'{"detail": "Not Found"}')
                    return
                body = json.dumps({"data": [{"id": m} for m in stub.models]}).encode()
                self._send(200, body)

            def _send(self, code, body, headers=()):
                self._done()  # answered from here: the client may send its next request
                self.send_response(code)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_POST(self):
                with stub.lock:
                    stub.in_flight += 1
                    stub.most_in_flight = max(stub.most_in_flight, stub.in_flight)
                self.counted = True
                try:
                    self._answer()
                finally:
                    self._done()

            def _done(self):
                if getattr(self, "counted", False):
                    self.counted = False
                    with stub.lock:
                        stub.in_flight -= 1

            def _answer(self):
                length = int(self.headers.get("Content-Length", 0))
                payload = json.loads(self.rfile.read(length))
                content = next(m["content"] for m in payload["messages"]
                               if m["role"] == "user")
                url = next(p["image_url"]["url"] for p in content if p["type"] == "image_url")
                prompt = next(p["text"] for p in content if p["type"] == "text")
                data = base64.b64decode(url.split(",", 1)[1])
                h = image_hash(data)
                with stub.lock:
                    stub.calls[h] += 1
                    stub.times[h].append(time.monotonic())
                    stub.prompts.append((h, prompt, payload.get("temperature")))
                    stub.payloads.append(payload)
                if stub.delay:
                    time.sleep(stub.delay)
                action = (stub.responder(data, prompt) if stub.responder is not None
                          else stub.script.get(h, "Male"))
                other = ("max_tokens" if stub.wants == "max_completion_tokens"
                         else "max_completion_tokens")
                if other in payload:
                    self._send(400, json.dumps({"error": {
                        "message": f"Unsupported parameter: '{other}' is not supported with "
                                   f"this model. Use '{stub.wants}' instead."}}).encode())
                    return
                if stub.strict_model and payload.get("model") not in (stub.models or ()):
                    self._send(404, json.dumps({"error": {
                        "message": f"The model `{payload.get('model')}` does not exist.",
                        "code": 404}}).encode())
                    return
                finish = "stop"
                if isinstance(action, (list, tuple)) and action[0] == "retry_after":
                    if stub.calls[h] == 1:
                        self._send(429, b'{"error": "slow down"}',
                                   headers=[("Retry-After", str(action[1]))])
                        return
                    action = action[2]
                if isinstance(action, (list, tuple)) and action[0] == "length":
                    action, finish = action[1], "length"
                if isinstance(action, (list, tuple)) and action[0] == "http":
                    self._send(int(action[1]), b'{"error": "stub failure"}')
                    return
                if isinstance(action, (list, tuple)) and action[0] == "cut":
                    self._done()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "1000")
                    self.end_headers()
                    self.wfile.write(b'{"choices": [{"index": 0, "mess')
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if isinstance(action, (list, tuple)) and action[0] == "sleep":
                    time.sleep(float(action[1]))
                    action = "Male"
                if isinstance(action, str):
                    action = _honour_constraint(payload, action)
                message = {"role": "assistant", "content": action}
                if isinstance(action, (list, tuple)) and action[0] == "refusal":
                    message = {"role": "assistant", "content": None, "refusal": action[1]}
                body = json.dumps({"choices": [{"index": 0, "message": message,
                                                "finish_reason": finish}]}).encode()
                self._send(200, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def settle(self, total: int = 0, *, at_least: dict | None = None,
               timeout: float = 20.0) -> dict:
        """The per-image counts once `total` requests have arrived and every image hash in
        `at_least` has been asked at least that many times (or `timeout` passed).

        A client that times out may return before the server thread has even read the retried
        request (a loaded machine), so counts read right after a run can lag by one."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if sum(self.calls.values()) >= total and all(
                        self.calls[h] >= k for h, k in (at_least or {}).items()):
                    break
            time.sleep(0.02)
        with self.lock:
            return dict(self.calls)

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


if __name__ == "__main__":
    script_path, port_file = sys.argv[1], sys.argv[2]
    with open(script_path) as f:
        spec = json.load(f)
    with Stub(spec["script"], delay=spec.get("delay", 0.0)) as stub:
        with open(port_file + ".tmp", "w") as f:
            f.write(stub.url)
        import os

        os.replace(port_file + ".tmp", port_file)
        deadline = time.time() + float(spec.get("lifetime", 120))
        while time.time() < deadline:  # bounded: never outlives a broken test for long
            time.sleep(0.2)
            with open(port_file + ".calls.tmp", "w") as f:
                json.dump(dict(stub.calls), f)
            os.replace(port_file + ".calls.tmp", port_file + ".calls")
