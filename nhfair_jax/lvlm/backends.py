"""Where answers come from: a served OpenAI-compatible endpoint (this module, standard library
only) or a local transformers checkpoint (`nhfair_jax.bridge.lvlm_hf`, behind the `[lvlm]` extra).

A backend takes a batch of `Request`s and returns one `Reply` per request, never fewer: a failure
of one request is that request's `error`, with the reason.
"""

from __future__ import annotations

import base64
import email.utils
import http.client
import io as _io
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
import warnings
from concurrent.futures import ThreadPoolExecutor

from nhfair_jax.bridge import lvlm_hf
from nhfair_jax.bridge.lvlm_types import Reply, Request  # noqa: F401 - the backends' vocabulary
from nhfair_jax.errors import UserError

BACKENDS = ("openai", "transformers")
# decoding.structured: how a closed question's answer is constrained to its options, where the
# server offers it ("off": free text, the default)
STRUCTURED = ("off", "json_schema", "choice")


def constraint(structured: str, options) -> dict:
    """The request fields that hold a closed question's answer to `options`: an OpenAI
    `response_format` JSON schema (`{"answer": <one of the options>}`) or vLLM's guided
    `guided_choice` list; nothing for free text or an open question (`options` None)."""
    if structured == "off" or not options:
        return {}
    if structured == "choice":
        return {"guided_choice": list(options)}
    schema = {"type": "object", "properties": {"answer": {"type": "string",
                                                          "enum": list(options)}},
              "required": ["answer"], "additionalProperties": False}
    return {"response_format": {"type": "json_schema",
                                "json_schema": {"name": "answer", "strict": True,
                                                "schema": schema}}}


def encode_image(request: Request) -> str:
    """A base64 data URL of the request's image (original bytes when unchanged, else PNG)."""
    if request.image_bytes is not None:
        data, mime = request.image_bytes, request.mime
    else:
        buf = _io.BytesIO()
        request.image.save(buf, format="PNG")
        data, mime = buf.getvalue(), "image/png"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


class Endpoint:
    """One server of a served backend: its URL, requests in flight, and until when it counts
    as down (after a refused or dropped connection)."""

    def __init__(self, url: str):
        self.url = url
        self.in_flight = self.answered = self.failures = 0
        self.down_until = 0.0

    def up(self, now: float) -> bool:
        return self.down_until <= now


def endpoint_urls(url) -> list[str]:
    """The URLs of `backend.url`: one URL, several separated by commas, or a sequence."""
    items = url.split(",") if isinstance(url, str) else list(url or ())
    return [str(u).strip().rstrip("/") for u in items if str(u).strip()]


class OpenAIBackend:
    """Any OpenAI-compatible chat-completions endpoint (vLLM, SGLang, `transformers serve`, a
    hosted API), or several serving the same model.

    Greedy (temperature 0), images as base64 data URLs, the system message when the request
    has one, at most `concurrency` requests in flight per endpoint, a timeout per request and
    up to `retries` retries on timeouts, connection errors, HTTP 429 and 5xx: after the delay
    the server asks for in `Retry-After` (capped at `max_retry_after_s`), else with exponential
    backoff. With several endpoints each request goes to the one with the fewest requests in
    flight; a retry goes to another one where there is one; an endpoint that refuses or drops a
    connection is left alone for `down_s` seconds (doubling while it keeps failing, at most
    five minutes), and the requests it failed go to the others at once, without using up a
    retry. The budget goes as `max_tokens` or, where the endpoint wants it (OpenAI's newer
    models refuse `max_tokens`), as `max_completion_tokens`: `token_param="auto"` switches on
    the first refusal. Before the run at least one endpoint must answer, and every endpoint
    that lists its models (`/models`) must serve `model`. The API key, if any, is read from the
    environment variable named by `api_key_env` (never stored in the config or the answers).
    """

    name = "openai"
    TOKEN_PARAMS = ("auto", "max_tokens", "max_completion_tokens")
    MAX_DOWN_S = 300.0

    def __init__(self, url, model: str, *, concurrency: int = 8, timeout_s: float = 60.0,
                 retries: int = 3, backoff_s: float = 1.0, api_key_env: str = "",
                 check: bool = True, token_param: str = "auto",
                 max_retry_after_s: float = 120.0, down_s: float = 30.0,
                 structured: str = "off"):
        urls = endpoint_urls(url)
        bad = [u for u in urls if not u.startswith(("http://", "https://"))]
        if not urls or bad:
            raise UserError(f"backend.url must be an http(s) URL of an OpenAI-compatible API "
                            f"(e.g. http://127.0.0.1:8000/v1), or several separated by commas, "
                            f"got {(bad[0] if bad else url)!r}")
        if not model:
            raise UserError("backend.model is empty; name the served model (as the endpoint's "
                            "/models lists it)")
        if structured not in STRUCTURED:
            raise UserError(f"decoding.structured must be one of {', '.join(STRUCTURED)}, got "
                            f"{structured!r}")
        if token_param not in self.TOKEN_PARAMS:
            raise UserError(f"backend.token_param must be one of {', '.join(self.TOKEN_PARAMS)}"
                            f", got {token_param!r}")
        self.endpoints = [Endpoint(u) for u in dict.fromkeys(urls)]
        self.url, self.model = self.endpoints[0].url, model
        self.concurrency, self.timeout_s = max(1, int(concurrency)), float(timeout_s)
        self.retries, self.backoff_s = max(0, int(retries)), float(backoff_s)
        self.max_retry_after_s, self.down_s = float(max_retry_after_s), float(down_s)
        self.token_param = "max_tokens" if token_param == "auto" else token_param
        self.switch_token_param = token_param == "auto"
        self.api_key = os.environ.get(api_key_env, "") if api_key_env else ""
        self.model_id = f"openai:{model}"
        self.structured = structured
        self.decoding = {"temperature": 0.0, "scored": False}
        if structured != "off":  # a free-text run's keys stay what they were
            self.decoding["structured"] = structured
        self._free = threading.Condition()
        self._stop = None  # why no further request is sent (a 404, an interrupt)
        if check:
            self.check()

    @property
    def capacity(self) -> int:
        """Requests in flight at most, over all endpoints."""
        return self.concurrency * len(self.endpoints)

    def _headers(self):
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    def check(self) -> None:
        """Fails before the run when no endpoint answers, or when one that lists its models
        does not serve `model` (any other HTTP reply passes); an endpoint that does not answer
        while others do is a warning, and starts as down."""
        unreachable = []
        for endpoint in self.endpoints:
            try:
                self._check_one(endpoint.url)
            except _Unreachable as e:
                unreachable.append((endpoint, e.reason))
        if len(unreachable) == len(self.endpoints):
            endpoint, reason = unreachable[0]
            more = f" (nor do {len(unreachable) - 1} other endpoints)" if len(unreachable) > 1 \
                else ""
            raise UserError(f"cannot reach the endpoint {endpoint.url} ({reason}){more}; start "
                            "the server or fix backend.url")
        for endpoint, reason in unreachable:
            self._went_down(endpoint)
            warnings.warn(f"the endpoint {endpoint.url} does not answer ({reason}); its share "
                          "of the questions goes to the other endpoints", UserWarning,
                          stacklevel=2)

    def _check_one(self, url: str) -> None:
        req = urllib.request.Request(f"{url}/models", headers=self._headers())
        try:
            with urllib.request.urlopen(req, timeout=min(self.timeout_s, 10.0)) as resp:
                body = resp.read()
        except urllib.error.HTTPError:
            return  # the server is there; /models may simply not exist
        except (urllib.error.URLError, socket.timeout, ConnectionError, OSError) as e:
            raise _Unreachable(getattr(e, "reason", e)) from e
        served = _model_ids(body)
        if served and self.model not in served:
            raise UserError(f"backend.model {self.model!r} is not served at {url}; it "
                            f"serves: {', '.join(served)} (set backend.model to one of them)")

    # --- which endpoint -----------------------------------------------------------------------

    def _take(self, avoid) -> Endpoint:
        """An endpoint with a free slot: up, not in `avoid` where possible, fewest in flight;
        while every endpoint is down, the one that comes back first (the attempt is then a
        retry like any other)."""
        with self._free:
            while True:
                now = time.monotonic()
                up = [e for e in self.endpoints if e.up(now)]
                pool = up or [min(self.endpoints, key=lambda e: e.down_until)]
                free = [e for e in pool if e.in_flight < self.concurrency]
                if free:
                    chosen = min(free, key=lambda e: (e in avoid, e.in_flight, e.answered))
                    chosen.in_flight += 1
                    return chosen
                self._free.wait(timeout=1.0)

    def _give_back(self, endpoint: Endpoint, *, answered: bool = False) -> None:
        with self._free:
            endpoint.in_flight -= 1
            if answered:
                endpoint.answered += 1
                endpoint.failures, endpoint.down_until = 0, 0.0
            self._free.notify_all()

    def _went_down(self, endpoint: Endpoint) -> bool:
        """Marks an endpoint down; whether another one is up to take its requests."""
        with self._free:
            endpoint.failures += 1
            wait = min(self.down_s * 2 ** (endpoint.failures - 1), self.MAX_DOWN_S)
            endpoint.down_until = time.monotonic() + wait
            now = time.monotonic()
            self._free.notify_all()
            return any(e.up(now) for e in self.endpoints if e is not endpoint)

    def _payload(self, request: Request, token_param: str) -> bytes:
        content = [{"type": "image_url", "image_url": {"url": encode_image(request)}},
                   {"type": "text", "text": request.prompt}]
        messages = [{"role": "user", "content": content}]
        if request.system:
            messages.insert(0, {"role": "system", "content": request.system})
        body = {"model": self.model, "temperature": 0.0,
                token_param: int(request.max_new_tokens), "messages": messages}
        body.update(constraint(self.structured, request.options))
        return json.dumps(body).encode()

    def _retry_after(self, error: urllib.error.HTTPError) -> float | None:
        value = error.headers.get("Retry-After") if error.headers else None
        if not value:
            return None
        try:
            delay = float(value)
        except ValueError:
            try:
                when = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return None
            delay = when.timestamp() - time.time()
        return min(max(delay, 0.0), self.max_retry_after_s)

    def _other_token_param(self, sent: str, code: int, detail: str) -> str | None:
        """The budget parameter a 400 reply asks for instead of the one sent, if any."""
        other = "max_completion_tokens" if sent == "max_tokens" else "max_tokens"
        return other if self.switch_token_param and code == 400 and other in detail else None

    def _one(self, request: Request) -> Reply:
        last, delay, switched = "no attempt", 0.0, False
        attempt, avoid, left = 0, set(), set()
        while attempt <= self.retries:
            if delay:
                time.sleep(delay)
            if self._stop is not None:
                return Reply(None, error=f"not asked: {self._stop}")
            endpoint = self._take(avoid)
            sent = self.token_param
            body = self._payload(request, sent)
            req = urllib.request.Request(f"{endpoint.url}/chat/completions", data=body,
                                         headers=self._headers(), method="POST")
            answered = False
            try:
                with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                    payload = json.loads(resp.read().decode("utf-8"))
                reply = _reply_of(payload)
                reply.endpoint, answered = endpoint.url, True
                return reply
            except urllib.error.HTTPError as e:
                detail = e.read()[:300].decode("utf-8", "replace").strip()
                last = f"HTTP {e.code}: {detail}" if detail else f"HTTP {e.code}"
                other = None if switched else self._other_token_param(sent, e.code, detail)
                if other is not None:
                    self.token_param = other  # for every later request too (threads agree)
                    switched, delay = True, 0.0
                    continue  # the same attempt again with the parameter the endpoint names
                if e.code == 404:  # no such route or model: every other question would get it
                    self._stop = self._stop or (
                        f"{endpoint.url}/chat/completions answered {last} for model "
                        f"{self.model!r}; check backend.url (it ends in /v1) and backend.model "
                        "(the name the server serves)")
                if e.code != 429 and e.code < 500:
                    return Reply(None, error=last, endpoint=endpoint.url)  # will not get better
                after = self._retry_after(e)
                delay = after if after is not None else self.backoff_s * 2 ** attempt
            except (socket.timeout, TimeoutError):
                last = f"timed out after {self.timeout_s:g} s"
                delay = self.backoff_s * 2 ** attempt
            except (urllib.error.URLError, ConnectionError, OSError,
                    http.client.HTTPException) as e:
                # HTTPException: the connection closed mid-reply (IncompleteRead, a bad
                # status line): the server is going down as surely as one that refuses
                last = f"connection failed at {endpoint.url}: {getattr(e, 'reason', e)!s}"
                if self._went_down(endpoint) and endpoint not in left:
                    left.add(endpoint)  # another endpoint takes it now: not a retry
                    avoid, delay = {endpoint}, 0.0
                    continue
                delay = self.backoff_s * 2 ** attempt
            except (ValueError, KeyError, TypeError, IndexError) as e:
                return Reply(None, error=f"malformed response: {e}", endpoint=endpoint.url)
            finally:
                self._give_back(endpoint, answered=answered)
            avoid = {endpoint}
            attempt += 1
        return Reply(None, error=f"{last} (after {self.retries + 1} attempts)")

    def answer(self, requests: list[Request]) -> list[Reply]:
        """One Reply per request.

        Raises:
          UserError: the endpoint answered HTTP 404 (a wrong URL or model name): the batch is
            not logged and no further question is asked.
        """
        pool = ThreadPoolExecutor(max_workers=self.capacity)
        try:
            replies = list(pool.map(self._one, requests))
        except BaseException:  # Ctrl-C: nothing more is sent, queued requests are dropped
            self._stop = self._stop or "interrupted"
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
        if self._stop is not None:
            raise UserError(f"{self._stop}; no further question was asked")
        return replies

    def close(self) -> None:
        pass


class _Unreachable(Exception):
    def __init__(self, reason):
        super().__init__(str(reason))
        self.reason = reason


def _model_ids(body: bytes) -> list[str]:
    """The model ids of an OpenAI /models reply; [] when it is not one."""
    try:
        data = json.loads(body.decode("utf-8")).get("data")
        return [str(m["id"]) for m in data if isinstance(m, dict) and "id" in m]
    except (ValueError, AttributeError, TypeError, KeyError, UnicodeDecodeError):
        return []


def _reply_of(payload: dict) -> Reply:
    choice = payload["choices"][0]
    message = choice.get("message") or {}
    finish = choice.get("finish_reason")
    if message.get("refusal"):
        return Reply(str(message["refusal"]), refused=True, finish_reason=finish)
    if finish == "content_filter":
        return Reply(message.get("content") or "", refused=True, finish_reason=finish)
    content = message.get("content")
    if isinstance(content, list):  # some servers return content parts
        content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return Reply(content if content is not None else "", finish_reason=finish)


def make_backend(config):
    """The backend a config names, ready to answer (endpoint reachable, checkpoint loaded).

    Raises:
      UserError: an unknown backend, an unreachable endpoint, or a checkpoint that is not a
        supported model.
    """
    b = config.backend
    if b.name == "openai":
        return OpenAIBackend(b.url, b.model, concurrency=b.concurrency, timeout_s=b.timeout_s,
                             retries=b.retries, backoff_s=b.backoff_s, api_key_env=b.api_key_env,
                             token_param=b.token_param,
                             max_retry_after_s=b.max_retry_after_s,
                             structured=config.decoding.structured)
    if b.name == "transformers":
        if config.decoding.structured != "off":
            raise UserError("decoding.structured constrains a served model's answers; with "
                            "backend.name=transformers set it to off (option scores: "
                            "backend.score_options)")
        return lvlm_hf.HFBackend(b.model, device=b.device, dtype=b.dtype,
                                 batch_size=b.batch_size, score_options=b.score_options)
    raise UserError(f"unknown backend {b.name!r}; choose one of {', '.join(BACKENDS)} "
                    "(config backend.name)")
