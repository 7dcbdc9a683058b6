"""An independent mDNS peer for the tests (Debian's python3-zeroconf), run inside the test's
network namespace on 127.0.0.1 only.

Arguments: the service types to browse (e.g. _http._tcp.local.). It prints one JSON line per
event: {"event": "added"|"updated"|"removed", "type", "name", and once resolved "port",
"server", "addresses", "txt"}. On stdin it takes JSON commands:
  {"cmd": "register", "type": "_http._tcp.local.", "name": "Printyard Lab", "port": 9,
   "txt": {...}, "address": "10.213.0.2"}   -> {"event": "registered", "name": ...}
  {"cmd": "quit"}
"""

import json
import socket
import sys
import threading

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
out_lock = threading.Lock()


def emit(message):
    with out_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def resolve(service_type, name, event):
    info = ServiceInfo(service_type, name)
    info.request(zc, 3000)
    emit(
        {
            "event": event,
            "type": service_type,
            "name": name,
            "port": info.port,
            "server": info.server,
            "addresses": info.parsed_addresses(),
            "txt": {k.decode(): (v.decode() if v is not None else None) for k, v in (info.properties or {}).items()},
        }
    )


def on_change(zeroconf, service_type, name, state_change):
    if state_change is ServiceStateChange.Removed:
        emit({"event": "removed", "type": service_type, "name": name})
        return
    event = "added" if state_change is ServiceStateChange.Added else "updated"
    threading.Thread(target=resolve, args=(service_type, name, event), daemon=True).start()


browsers = [ServiceBrowser(zc, t, handlers=[on_change]) for t in sys.argv[1:]]
emit({"event": "ready"})

for line in sys.stdin:
    command = json.loads(line)
    if command["cmd"] == "register":
        info = ServiceInfo(
            command["type"],
            f'{command["name"]}.{command["type"]}',
            port=command["port"],
            properties=command.get("txt", {}),
            addresses=[socket.inet_aton(command["address"])],
            server=command.get("server", "peer.local."),
        )
        zc.register_service(info)
        emit({"event": "registered", "name": command["name"]})
    elif command["cmd"] == "quit":
        break

for browser in browsers:
    browser.cancel()
zc.close()
