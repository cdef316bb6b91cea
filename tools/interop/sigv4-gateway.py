"""An independent SigV4 verifier for the interop suite (issue #42): a reverse proxy in front of an
Iceberg REST server (the fixture) that recomputes every request's signature with botocore's own
SigV4 implementation from the secret it knows, and refuses (403, AWS JSON protocol style) any
request whose credentials, scope, date, payload hash or signature does not hold. Accepted requests
are forwarded unchanged to the upstream and its answer is returned.

    python sigv4-gateway.py --upstream http://127.0.0.1:N --service glue --region us-east-1 \
        --key AKID:SECRET [--key …] [--max-skew-seconds 300] [--clock-offset-seconds 0] \
        [--allow-unsigned-payload] [--sts [--sts-duration-seconds N]]

Prints `STS 127.0.0.1:<port>` (with --sts) and then `LISTENING 127.0.0.1:<port>` on stdout, and
serves until stdin closes (its parent died), like moto-server.py.

With --sts, moto's STS (moto.server.ThreadedMotoServer) runs in this process on another port;
the credentials it issues (AssumeRoleWithWebIdentity, AssumeRole) are known to the gateway by
reading moto's STS backend (moto/sts/models.py: `sts_backends[account][partition].assumed_roles`,
AssumedRole.access_key_id / secret_access_key / session_token / expiration). With
--sts-duration-seconds, STSBackend.assume_role is wrapped so every issued credential lives N s.

How botocore is used (botocore 1.44.8, botocore/auth.py, class SigV4Auth): an AWSRequest is built
from only the headers named in SignedHeaders (values as received), the body as received, the path
as received (raw, still percent-encoded: `_normalize_url_path` quotes it once more, which is
SigV4's double encoding for every service but S3) and the query's parameters (decoded, `+` as a
space; `_canonical_query_string_params` encodes each name and value with RFC 3986's unreserved
set and sorts them, as AWS canonicalises a query: a client that signs `s3://a` raw instead of
`s3%3A%2F%2Fa` is refused); `context['timestamp']` is the received X-Amz-Date;
then `canonical_request`, `string_to_sign` and `signature` compute what the signature must be.
`canonical_request` takes the payload hash from X-Amz-Content-SHA256 when that header is present
(else the SHA-256 of the body), so that header is checked against the body separately.

Checks, in order, each refusal a 403 with `x-amzn-ErrorType: <Type>` and `{"__type", "message"}`
(application/x-amz-json-1.1), messages worded as AWS words them:
  no Authorization                                  MissingAuthenticationTokenException
  malformed Authorization / X-Amz-Date              IncompleteSignatureException
  unknown key id; a session token that is not the   UnrecognizedClientException
    one STS issued (or one sent with a static key)
  STS token not among SignedHeaders                 InvalidSignatureException
  STS credentials past their expiration             ExpiredTokenException (moto's, real clock)
  scope region / service / date not ours            InvalidSignatureException
  host or x-amz-date not signed, a signed header    InvalidSignatureException / IncompleteSignatureException
    missing
  X-Amz-Date beyond ±max skew of the (offset) clock InvalidSignatureException "Signature expired: …"
                                                    / "Signature not yet current: …"
  X-Amz-Content-SHA256 not the body's SHA-256       XAmzContentSHA256Mismatch
  UNSIGNED-PAYLOAD without --allow-unsigned-payload InvalidSignatureException
  signature ≠ botocore's                            InvalidSignatureException "The request signature we
                                                    calculated does not match …" (canonical request and
                                                    string to sign logged on stderr)
stderr has one line per request (status, method, target; the refusal's message).

Own endpoints (never signed): GET /__gateway/stats → {accepted, refused: {Type: n}, keys: {AKID: n
accepted}, unsignedPayload (requests that reached the payload check with UNSIGNED-PAYLOAD), sts:
{assumeRoleWithWebIdentity, assumeRole, tokens: distinct web identity tokens, in order}};
POST /__gateway/reset zeroes them.
"""
import argparse
import datetime
import hashlib
import hmac
import http.client
import http.server
import inspect
import json
import socketserver
import sys
import threading
import urllib.parse

from botocore.auth import SIGNED_HEADERS_BLACKLIST, SIGV4_TIMESTAMP, UNSIGNED_PAYLOAD, SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.compat import HTTPHeaders
from botocore.credentials import Credentials

ALGORITHM = "AWS4-HMAC-SHA256"
HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "trailers", "transfer-encoding", "upgrade"}
SIGNATURE_MISMATCH = (
    "The request signature we calculated does not match the signature you provided. "
    "Check your AWS Secret Access Key and signing method. Consult the service documentation for details."
)


def log(msg: str) -> None:
    sys.stderr.write(msg.rstrip("\n") + "\n")
    sys.stderr.flush()


class Refusal(Exception):
    def __init__(self, type_: str, message: str):
        super().__init__(message)
        self.type = type_
        self.message = message


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self.accepted = 0
        self.refused: dict[str, int] = {}
        self.keys: dict[str, int] = {}
        self.unsigned_payload = 0
        self.assume_role_with_web_identity = 0
        self.assume_role = 0
        self.tokens: list[str] = []

    def snapshot(self) -> dict:
        return {
            "accepted": self.accepted,
            "refused": dict(self.refused),
            "keys": dict(self.keys),
            "unsignedPayload": self.unsigned_payload,
            "sts": {"assumeRoleWithWebIdentity": self.assume_role_with_web_identity, "assumeRole": self.assume_role, "tokens": list(self.tokens)},
        }


STATS = Stats()


class AllSignedHeadersSigV4Auth(SigV4Auth):
    """botocore's SigV4Auth, except that a header botocore never signs itself (SIGNED_HEADERS_BLACKLIST:
    user-agent, expect, …) is canonicalised when the client did sign it, as AWS does. Used only for
    such a request; every other step is SigV4Auth's own."""

    def headers_to_sign(self, request):
        header_map = HTTPHeaders()
        for name, value in request.headers.items():
            header_map[name.lower()] = value
        return header_map


# --- moto's STS, in process -------------------------------------------------------------------------

class StsKeys:
    """Credentials moto's STS issued, read from its backend on every lookup."""

    def __init__(self, duration: int | None):
        from moto.server import ThreadedMotoServer
        from moto.sts import models as sts_models
        from moto.sts import responses as sts_responses

        self.models = sts_models
        backend_cls = sts_models.STSBackend
        original_assume_role = backend_cls.assume_role
        signature = inspect.signature(original_assume_role)
        if duration is not None:
            def assume_role(*args, **kwargs):
                bound = signature.bind(*args, **kwargs)
                bound.arguments["duration"] = duration
                return original_assume_role(*bound.args, **bound.kwargs)

            backend_cls.assume_role = assume_role  # assume_role_with_web_identity calls self.assume_role(**kwargs)

        response_cls = sts_responses.TokenResponse
        original_web_identity = response_cls.assume_role_with_web_identity
        original_response_assume_role = response_cls.assume_role

        def assume_role_with_web_identity(self):
            token = self._get_param("WebIdentityToken")
            result = original_web_identity(self)
            with STATS.lock:
                STATS.assume_role_with_web_identity += 1
                if token is not None and token not in STATS.tokens:
                    STATS.tokens.append(token)
            return result

        def response_assume_role(self):
            result = original_response_assume_role(self)
            with STATS.lock:
                STATS.assume_role += 1
            return result

        response_cls.assume_role_with_web_identity = assume_role_with_web_identity
        response_cls.assume_role = response_assume_role

        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        self.server.start()
        self.host, self.port = self.server.get_host_and_port()

    def lookup(self, access_key_id: str):
        backends = self.models.sts_backends
        for account_id in list(backends.keys()):
            for backend in list(dict.values(dict.__getitem__(backends, account_id))):
                role = backend.get_assumed_role_from_access_key(access_key_id)
                if role is not None:
                    return role
        return None

    def stop(self) -> None:
        self.server.stop()


# --- verification -----------------------------------------------------------------------------------

def parse_authorization(value: str) -> dict:
    algorithm, _, rest = value.strip().partition(" ")
    if algorithm != ALGORITHM:
        raise Refusal("IncompleteSignatureException", f"Unsupported AWS 'algorithm': '{algorithm}'")
    fields = {}
    for part in rest.split(","):
        name, eq, val = part.strip().partition("=")
        if eq:
            fields[name] = val
    missing = [k for k in ("Credential", "SignedHeaders", "Signature") if k not in fields]
    if missing:
        raise Refusal(
            "IncompleteSignatureException",
            f"Authorization header requires '{missing[0]}' parameter. Authorization={value}",
        )
    scope = fields["Credential"].split("/")
    if len(scope) != 5 or scope[4] != "aws4_request":
        raise Refusal("IncompleteSignatureException", f"Credential should have five parts (AKID/date/region/service/aws4_request): '{fields['Credential']}'.")
    return {
        "akid": scope[0],
        "date": scope[1],
        "region": scope[2],
        "service": scope[3],
        "signed": [h for h in fields["SignedHeaders"].split(";") if h],
        "signed_raw": fields["SignedHeaders"],
        "signature": fields["Signature"],
    }


def fmt(t: datetime.datetime) -> str:
    return t.strftime(SIGV4_TIMESTAMP)


def skew_words(seconds: int) -> str:
    return f"{seconds // 60} min." if seconds % 60 == 0 else f"{seconds} sec."


class Verifier:
    def __init__(self, args, sts: StsKeys | None):
        self.service = args.service
        self.region = args.region
        self.keys = {}
        for k in args.key:
            akid, sep, secret = k.partition(":")
            if not sep or not akid or not secret:
                raise SystemExit(f"--key takes AKID:SECRET, not {k!r}")
            self.keys[akid] = secret
        self.max_skew = args.max_skew_seconds
        self.offset = args.clock_offset_seconds
        self.allow_unsigned = args.allow_unsigned_payload
        self.sts = sts

    def now(self) -> datetime.datetime:
        return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) + datetime.timedelta(seconds=self.offset)

    def verify(self, method: str, target: str, headers, body: bytes) -> tuple[str, bool]:
        """Returns (access key id, unsigned payload) or raises Refusal."""
        authorization = headers.get_all("Authorization") or []
        if not authorization:
            raise Refusal("MissingAuthenticationTokenException", "Missing Authentication Token")
        if len(authorization) > 1:
            raise Refusal("IncompleteSignatureException", "More than one Authorization header.")
        auth = parse_authorization(authorization[0])

        # Who signed: a static key, or credentials moto's STS issued.
        token = None
        role = None
        secret = self.keys.get(auth["akid"])
        if secret is None and self.sts is not None:
            role = self.sts.lookup(auth["akid"])
            if role is not None:
                secret, token = role.secret_access_key, role.session_token
        if secret is None:
            raise Refusal("UnrecognizedClientException", "The security token included in the request is invalid.")
        sent_tokens = headers.get_all("X-Amz-Security-Token") or []
        if token is None and sent_tokens:
            raise Refusal("UnrecognizedClientException", "The security token included in the request is invalid.")
        if token is not None:
            if len(sent_tokens) != 1 or not hmac.compare_digest(sent_tokens[0].strip().encode(), token.encode()):
                raise Refusal("UnrecognizedClientException", "The security token included in the request is invalid.")
            if "x-amz-security-token" not in auth["signed"]:
                raise Refusal("InvalidSignatureException", "'X-Amz-Security-Token' must be a 'SignedHeader' in the AWS Authorization.")
            if role.expiration <= datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None):
                raise Refusal("ExpiredTokenException", "The security token included in the request is expired")

        if auth["region"] != self.region:
            raise Refusal("InvalidSignatureException", f"Credential should be scoped to a valid region, not '{auth['region']}'. ")
        if auth["service"] != self.service:
            raise Refusal("InvalidSignatureException", f"Credential should be scoped to correct service: '{self.service}'. ")

        signed = auth["signed"]
        if signed != sorted(set(signed)) or any(h != h.lower() for h in signed):
            raise Refusal("InvalidSignatureException", f"SignedHeaders must be lowercase, sorted and distinct: '{auth['signed_raw']}'.")
        if "host" not in signed:
            raise Refusal("InvalidSignatureException", "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.")
        if "x-amz-date" not in signed:
            raise Refusal("IncompleteSignatureException", "'X-Amz-Date' must be a 'SignedHeader' in the AWS Authorization.")
        absent = [h for h in signed if not headers.get_all(h)]
        if absent:
            raise Refusal("InvalidSignatureException", f"Signed header '{absent[0]}' is not in the request.")

        # Date: well formed, the credential scope's day, within ±max skew of this gateway's clock.
        amz_date = headers.get_all("X-Amz-Date")[0].strip()
        try:
            when = datetime.datetime.strptime(amz_date, SIGV4_TIMESTAMP)
        except ValueError:
            raise Refusal("IncompleteSignatureException", f"Date must be in ISO-8601 'basic format'. Got '{amz_date}'. See http://en.wikipedia.org/wiki/ISO_8601")
        if auth["date"] != amz_date[:8]:
            raise Refusal(
                "InvalidSignatureException",
                f"Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '{auth['date']}' != '{amz_date[:8]}', from 'X-Amz-Date'.",
            )
        now = self.now()
        skew = datetime.timedelta(seconds=self.max_skew)
        if when < now - skew:
            raise Refusal("InvalidSignatureException", f"Signature expired: {amz_date} is now earlier than {fmt(now - skew)} ({fmt(now)} - {skew_words(self.max_skew)})")
        if when > now + skew:
            raise Refusal("InvalidSignatureException", f"Signature not yet current: {amz_date} is still later than {fmt(now + skew)} ({fmt(now)} + {skew_words(self.max_skew)})")

        # Payload hash: the declared one must be the body's.
        unsigned = False
        declared = headers.get_all("X-Amz-Content-SHA256") or []
        if declared:
            value = declared[0].strip()
            if value == UNSIGNED_PAYLOAD:
                unsigned = True
                with STATS.lock:
                    STATS.unsigned_payload += 1
                if not self.allow_unsigned:
                    raise Refusal("InvalidSignatureException", "UNSIGNED-PAYLOAD is not accepted here: the payload must be signed (X-Amz-Content-SHA256 the hex SHA-256 of the body).")
            elif value != hashlib.sha256(body).hexdigest():
                raise Refusal("XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.")

        # The signature, recomputed by botocore.
        path, _, query = target.partition("?")
        params = []
        for pair in query.split("&"):
            if not pair:
                continue
            name, _, value = pair.partition("=")
            # '+' is a space in a query (as Jetty, requests and URLSearchParams take it)
            params.append((urllib.parse.unquote_plus(name), urllib.parse.unquote_plus(value)))
        signed_headers = HTTPHeaders()
        for name in signed:
            for value in headers.get_all(name):
                signed_headers[name] = value
        request = AWSRequest(method=method, url=f"http://gateway.invalid{path}", data=body, headers=signed_headers, params=params or None)
        request.context["timestamp"] = amz_date
        auth_cls = AllSignedHeadersSigV4Auth if any(h in SIGNED_HEADERS_BLACKLIST for h in signed) else SigV4Auth
        signer = auth_cls(Credentials(auth["akid"], secret, token), self.service, self.region)
        canonical = signer.canonical_request(request)
        string_to_sign = signer.string_to_sign(request, canonical)
        expected = signer.signature(string_to_sign, request)
        if not hmac.compare_digest(expected.encode(), auth["signature"].encode()):
            log(
                f"signature mismatch for {method} {target} (key {auth['akid']}): expected {expected}, got {auth['signature']}\n"
                f"--- canonical request ---\n{canonical}\n--- string to sign ---\n{string_to_sign}\n---"
            )
            raise Refusal("InvalidSignatureException", SIGNATURE_MISMATCH)
        return auth["akid"], unsigned


# --- HTTP -------------------------------------------------------------------------------------------

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "sigv4-gateway"

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format, *args):  # noqa: A002 (BaseHTTPRequestHandler's name)
        pass

    def read_body(self) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            out = bytearray()
            while True:
                line = self.rfile.readline(65537)
                size = int(line.split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return bytes(out)
                out += self.rfile.read(size)
                self.rfile.readline(65537)
        length = self.headers.get("Content-Length")
        return self.rfile.read(int(length)) if length else b""

    def answer(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status >= 200 and status not in (204, 304) and not (self.command == "HEAD" and any(n.lower() == "content-length" for n, _ in headers)):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)

    def answer_json(self, status: int, doc, extra: list[tuple[str, str]] = ()) -> None:
        self.answer(status, [("Content-Type", "application/json"), *extra], json.dumps(doc).encode())

    def serve(self) -> None:
        try:
            body = self.read_body()
        except (ValueError, OSError) as e:
            self.close_connection = True
            self.answer_json(400, {"__type": "BadRequest", "message": f"unreadable body: {e}"})
            return
        target = self.path
        gateway = self.server.gateway  # type: ignore[attr-defined]
        if target.split("?")[0].startswith("/__gateway/"):
            self.own(target.split("?")[0], body)
            return
        try:
            akid, _ = gateway.verifier.verify(self.command, target, self.headers, body)
        except Refusal as r:
            with STATS.lock:
                STATS.refused[r.type] = STATS.refused.get(r.type, 0) + 1
            log(f"403 {r.type} {self.command} {target}: {r.message}")
            payload = json.dumps({"__type": r.type, "message": r.message}).encode()
            self.answer(403, [("Content-Type", "application/x-amz-json-1.1"), ("x-amzn-ErrorType", r.type)], payload)
            return
        with STATS.lock:
            STATS.accepted += 1
            STATS.keys[akid] = STATS.keys.get(akid, 0) + 1
        self.forward(gateway.upstream, target, body)

    def forward(self, upstream: urllib.parse.SplitResult, target: str, body: bytes) -> None:
        connection_named = {t.strip().lower() for v in self.headers.get_all("Connection") or [] for t in v.split(",")}
        conn = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=120)
        try:
            conn.putrequest(self.command, target, skip_host=True, skip_accept_encoding=True)
            for name, value in self.headers.items():
                lname = name.lower()
                if lname in HOP_BY_HOP or lname in connection_named or lname == "content-length":
                    continue
                conn.putheader(name, value)
            if body or self.command in ("POST", "PUT", "PATCH"):
                conn.putheader("Content-Length", str(len(body)))
            conn.endheaders(body or None)
            resp = conn.getresponse()
            data = resp.read()
            # the body is re-sent whole, so its length is ours (a HEAD keeps the upstream's); Server and Date are this answer's own
            headers = [
                (n, v)
                for n, v in resp.getheaders()
                if n.lower() not in HOP_BY_HOP and n.lower() not in ("server", "date") and (n.lower() != "content-length" or self.command == "HEAD")
            ]
            log(f"{resp.status} {self.command} {target}")
            self.answer(resp.status, headers, data)
        except OSError as e:
            log(f"502 {self.command} {target}: upstream {e}")
            self.answer_json(502, {"__type": "BadGateway", "message": f"upstream: {e}"})
        finally:
            conn.close()

    def own(self, path: str, body: bytes) -> None:
        if path == "/__gateway/stats" and self.command == "GET":
            with STATS.lock:
                doc = STATS.snapshot()
            self.answer_json(200, doc)
        elif path == "/__gateway/reset" and self.command == "POST":
            with STATS.lock:
                STATS.reset()
            self.answer(204, [], b"")
        else:
            self.answer_json(404, {"__type": "NotFound", "message": f"no gateway endpoint {self.command} {path}"})

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = serve


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):
            return  # a client that left without reading its answer
        super().handle_error(request, client_address)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--upstream", required=True, help="http://host:port of the server behind the gateway")
    ap.add_argument("--service", required=True, help="signing name (credential scope's service), e.g. glue")
    ap.add_argument("--region", required=True)
    ap.add_argument("--key", action="append", default=[], help="AKID:SECRET, repeatable")
    ap.add_argument("--max-skew-seconds", type=int, default=300)
    ap.add_argument(
        "--clock-offset-seconds",
        type=int,
        default=0,
        help="shift this gateway's clock for the X-Amz-Date check (simulates a skewed client); STS expiry stays on the real clock, moto's",
    )
    ap.add_argument("--allow-unsigned-payload", action="store_true")
    ap.add_argument("--sts", action="store_true", help="also run moto's STS in process; its credentials are accepted")
    ap.add_argument("--sts-duration-seconds", type=int, default=None, help="force the lifetime of credentials moto's STS issues")
    args = ap.parse_args()
    upstream = urllib.parse.urlsplit(args.upstream)
    if upstream.scheme != "http" or not upstream.hostname or not upstream.port:
        raise SystemExit(f"--upstream must be http://host:port, not {args.upstream!r}")

    sts = StsKeys(args.sts_duration_seconds) if args.sts else None

    class Gateway:
        pass

    gateway = Gateway()
    gateway.upstream = upstream
    gateway.verifier = Verifier(args, sts)
    server = Server(("127.0.0.1", 0), Handler)
    server.gateway = gateway  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        if sts is not None:
            print(f"STS {sts.host}:{sts.port}", flush=True)
        host, port = server.server_address[:2]
        print(f"LISTENING {host}:{port}", flush=True)
        sys.stdin.read()
    finally:
        server.shutdown()
        if sts is not None:
            sts.stop()


if __name__ == "__main__":
    main()
