"""Runs `rawburst ARGS...` with a live viewfinder and talks to it over plain HTTP (and a raw socket), as a script or a
curious neighbour would. Usage: live_http_check.py ACTIONS_JSON RAWBURST ARGS...

ACTIONS_JSON is a list of steps, done in order once the command has printed its address:
  {"get": "/status", "token": true|false|"wrong"}       GET; records status code and JSON/bytes length
  {"post": {...}, "token": ...}                          POST /command with that JSON
  {"raw": "bytes to send"}                                sends raw bytes on a new connection, records the answer's first line
  {"stall": true}                                         opens a WebSocket (upgrade answered) and never reads from it
  {"sleep": seconds}
  {"wait_status": "expr", "seconds": N}                  polls /status until the Python expression on `s` is true
  {"frame": true}                                         GET /frame.jpg; records the status and its JPEG's size
  {"watch": seconds, "send": {...}}                       a WebSocket client reading for that long (after sending one
                                                          command, if given): binary and text messages counted
  {"hardlink": [existing, new]}, {"symlink": [target, new]}   makes a link at `new` (a file placed in a take's folder)
Prints one JSON object: the address, each step's result, the command's exit status, stdout and stderr.
"""
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from live_process import LiveProcess, open_websocket  # noqa: E402

actions = json.loads(sys.argv[1])
live = LiveProcess(sys.argv[2:])
result = {"steps": []}
url = live.wait_for_address(120)
if url:
    result["url"] = url
    base, _, query = url.partition("?")
    base = base.rstrip("/")
    host, port = re.match(r"http://\[?([^\]/]+?)\]?:(\d+)", base).groups()
    token = query[len("token="):] if query.startswith("token=") else None
    stalled = []

    def with_token(path, mode):
        if mode is True and token:
            return path + ("&" if "?" in path else "?") + "token=" + token
        if mode == "wrong":
            return path + ("&" if "?" in path else "?") + "token=" + "x" * 32
        return path

    def request(path, data=None, mode=True):
        req = urllib.request.Request(base + with_token(path, mode), data=data,
                                     headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()
        except OSError as e:
            return None, str(e).encode()

    for step in actions:
        out = {}
        if "get" in step:
            code, body = request(step["get"], mode=step.get("token", True))
            out = {"status": code, "bytes": len(body)}
            try:
                out["json"] = json.loads(body)
            except ValueError:
                pass
        elif "post" in step:
            code, body = request("/command", json.dumps(step["post"]).encode(), step.get("token", True))
            out = {"status": code}
            try:
                out["json"] = json.loads(body)
            except ValueError:
                out["body"] = body[:200].decode(errors="replace")
        elif "frame" in step:
            code, body = request("/frame.jpg")
            out = {"status": code, "bytes": len(body), "jpeg": body[:2] == b"\xff\xd8"}
        elif "raw" in step:
            s = socket.create_connection((host, int(port)), timeout=10)
            s.sendall(step["raw"].encode("latin-1"))
            try:
                answer = s.recv(4096)
            except OSError:
                answer = b""
            out = {"firstLine": answer.split(b"\r\n", 1)[0].decode(errors="replace")}
            s.close()
        elif "stall" in step:
            s, upgrade = open_websocket(host, port, with_token("/ws", True))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            out = {"upgrade": upgrade}
            stalled.append(s)   # kept open, never read again
        elif "watch" in step:
            s, upgrade = open_websocket(host, port, with_token("/ws", True))
            buffer = b""
            counts = {"upgrade": upgrade, "binary": 0, "text": 0, "close": False}
            if "send" in step:   # one text message, masked as a client's must be
                payload, mask = json.dumps(step["send"]).encode(), os.urandom(4)
                s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                          + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            end = time.time() + step["watch"]
            s.settimeout(0.2)
            while time.time() < end and not counts["close"]:
                try:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    buffer += chunk
                except socket.timeout:
                    pass
                while len(buffer) >= 2:
                    opcode, length, at = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
                    if length == 126:
                        if len(buffer) < 4:
                            break
                        length, at = int.from_bytes(buffer[2:4], "big"), 4
                    elif length == 127:
                        if len(buffer) < 10:
                            break
                        length, at = int.from_bytes(buffer[2:10], "big"), 10
                    if len(buffer) < at + length:
                        break
                    if opcode == 2:
                        counts["binary"] += 1
                        message = buffer[at:at + length]
                        if message[:4] == b"RBLV":   # LiveWire: header length at 6, width/height at 32/36, JSON length at 40
                            header = int.from_bytes(message[6:8], "little")
                            json_length = int.from_bytes(message[40:44], "little")
                            counts["width"] = int.from_bytes(message[32:36], "little")
                            counts["height"] = int.from_bytes(message[36:40], "little")
                            counts["lastMeta"] = json.loads(message[header:header + json_length])
                    elif opcode == 1:
                        counts["text"] += 1
                    elif opcode == 8:
                        counts["close"] = True
                    buffer = buffer[at + length:]
            s.close()
            out = counts
        elif "sleep" in step:
            time.sleep(step["sleep"])
        elif "hardlink" in step:
            os.link(*step["hardlink"])
        elif "symlink" in step:
            os.symlink(*step["symlink"])
        elif "wait_status" in step:
            end, ok = time.time() + step.get("seconds", 60), False
            while time.time() < end and not ok:
                code, body = request("/status")
                try:
                    s = json.loads(body)
                    ok = bool(eval(step["wait_status"], {}, {"s": s}))
                except Exception:
                    ok = False
                if not ok:
                    time.sleep(0.1)
            out = {"ok": ok}
        result["steps"].append(out)
try:
    result["exitCode"] = live.proc.wait(120)
except subprocess.TimeoutExpired:
    live.proc.kill()
    result["exitCode"] = None
time.sleep(0.2)
result["stderr"] = live.stderr()
result["stdout"] = live.stdout[-200000:]
print(json.dumps(result))
