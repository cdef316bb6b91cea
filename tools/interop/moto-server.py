"""moto's S3 in server mode for the interop suite: bound to 127.0.0.1 on a kernel-chosen port.

    python moto-server.py --bucket NAME [--bucket NAME ...]   creates the buckets, prints
                                                              `LISTENING 127.0.0.1:<port>`, serves
                                                              until stdin closes (its parent died)
    python moto-server.py --check                             starts, puts and reads back one
                                                              object with boto3, stops (setup.sh)

moto accepts any credentials and serves path-style requests (`http://127.0.0.1:<port>/<bucket>/…`);
its state lives in this process only. ThreadedMotoServer(port=0) is pyiceberg's own test
pattern for a free port.
"""
import argparse
import sys

import boto3
from moto.server import ThreadedMotoServer

KEY, SECRET, REGION = "interop", "interop-secret", "us-east-1"


def client(endpoint):
    return boto3.client("s3", endpoint_url=endpoint, region_name=REGION, aws_access_key_id=KEY, aws_secret_access_key=SECRET)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bucket", action="append", default=[])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    s3 = client(endpoint)
    try:
        if args.check:
            s3.create_bucket(Bucket="check")
            s3.put_object(Bucket="check", Key="a/b.txt", Body=b"hello")
            body = s3.get_object(Bucket="check", Key="a/b.txt")["Body"].read()
            assert body == b"hello", body
            print(f"  moto S3 server: {endpoint}, put and read back one object")
            return
        for b in args.bucket:
            s3.create_bucket(Bucket=b)
        print(f"LISTENING {host}:{port}", flush=True)
        sys.stdin.read()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
