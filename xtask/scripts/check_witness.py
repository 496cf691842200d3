"""Checks witness files against the project's schema of SV-COMP's witness
format 2.0 (docs/witness-2.0.schema.json) with the `jsonschema` package,
and GraphML witnesses for XML well-formedness.

usage: python3 check_witness.py SCHEMA FILE...
Prints one line per file, `ok FILE` or `bad FILE: reason`; exits 0 when
every file passes, 1 when one does not, 3 when a package is missing.
"""
import json
import sys
import xml.dom.minidom

try:
    import jsonschema
    import yaml
except ImportError as missing:
    print(f"missing python package: {missing.name}")
    sys.exit(3)


def problem(schema, path):
    if path.endswith(".graphml"):
        try:
            xml.dom.minidom.parse(path)
        except Exception as error:  # any parse failure is the answer
            return f"not well-formed XML: {error}"
        return None
    with open(path, encoding="utf-8") as f:
        try:
            document = yaml.safe_load(f)
        except yaml.YAMLError as error:
            return f"not YAML: {error}"
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    return errors[0].message + " at " + "/".join(map(str, errors[0].path)) if errors else None


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    failed = False
    for path in sys.argv[2:]:
        why = problem(schema, path)
        failed |= why is not None
        print(f"ok {path}" if why is None else f"bad {path}: {why}")
    sys.exit(1 if failed else 0)


main()
