"""What the live checks share: run `rawburst` and wait for the viewfinder's address it prints, and open a WebSocket
on a raw socket (the upgrade request read byte by byte, so nothing after the answer's head is taken from the socket)."""
import base64
import os
import re
import socket
import subprocess
import threading
import time


class LiveProcess:
    """`rawburst ARGS` with its standard error read on a thread (lines kept; the address caught) and its standard
    output collected."""

    def __init__(self, arguments, env=None):
        self.proc = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        self.lines, self.url, self.stdout = [], None, ""
        self._found = threading.Event()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        threading.Thread(target=self._read_stdout, daemon=True).start()

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.lines.append(line)
            m = re.search(r"live viewfinder: (http://\S+)", line)
            if m and not self._found.is_set():
                self.url = m.group(1)
                self._found.set()

    def _read_stdout(self):
        self.stdout = self.proc.stdout.read()

    def wait_for_address(self, seconds=120):
        """The address printed, or None once the command has ended (a refusal) or `seconds` have passed."""
        end = time.time() + seconds
        while time.time() < end:
            if self._found.wait(0.2):
                return self.url
            if self.proc.poll() is not None:
                return self.url if self._found.wait(0.5) else None
        return None

    def stderr(self, tail=3000):
        return "".join(self.lines)[-tail:]


def open_websocket(host, port, path):
    """A socket whose WebSocket upgrade to `path` has been answered; returns it and the answer's first line."""
    s = socket.create_connection((host, int(port)), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            break
        head += chunk
    return s, head.split(b"\r\n", 1)[0].decode(errors="replace")
