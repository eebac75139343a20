"""A real multi-node Ray cluster on this machine, for test_collector.py.

Run with the Python that has ray: `python ray_cluster.py SPEC.json`. SPEC is
{"nodes": [{"name": ..., "env": {...}, "resources": {...}}, ...]}; the first
node is the head. Each node is a real raylet (Ray's own multi-node test
utility, ray.cluster_utils.Cluster) started with that node's environment, so
the Ray workers on it (which inherit the raylet's environment) see that
node's PATH (its shim commands) and variables.

Every process binds to 127.0.0.1 only: the parent sets
RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0, which makes Ray use the loopback address
for every node, and RAY_TMPDIR to the test's own directory.

Prints one JSON line {"address": ..., "nodes": N} when the cluster is up, then
waits; a line `stop` on stdin, or stdin closing (the test died), shuts the
cluster down. Exit status 0 after a clean shutdown.
"""

import json
import os
import sys
import time


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    from ray.cluster_utils import Cluster

    base = dict(os.environ)
    cluster = None

    def use_env(extra):
        os.environ.clear()
        os.environ.update(base)
        os.environ.update(extra)

    try:
        for i, node in enumerate(spec["nodes"]):
            use_env(node.get("env", {}))
            args = dict(
                num_cpus=1,
                object_store_memory=80 * 1024 * 1024,
                node_ip_address="127.0.0.1",
                node_name=node["name"],
                resources=node.get("resources", {}),
            )
            if i == 0:
                args["include_dashboard"] = False
                cluster = Cluster(initialize_head=True, head_node_args=args)
            else:
                cluster.add_node(**args)
        use_env({})
        cluster.wait_for_nodes(timeout=120)
        print(json.dumps({"address": cluster.address, "nodes": len(spec["nodes"])}), flush=True)
        for line in sys.stdin:
            if line.strip() == "stop":
                break
    finally:
        if cluster is not None:
            t = time.time()
            cluster.shutdown()
            print(json.dumps({"shutdown_s": round(time.time() - t, 1)}), flush=True)


if __name__ == "__main__":
    main()
