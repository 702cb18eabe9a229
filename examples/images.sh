#!/bin/sh
# Family A (image tasks) with plain curl: submit an imagine task, poll it until
# it finishes, print the image's address. The key goes in Authorization: Bearer.
set -eu
URL="${SWITCHYARD_URL:-http://127.0.0.1:8080}"
KEY="${SWITCHYARD_KEY:?Set SWITCHYARD_KEY to a client key (the first npm start prints one).}"

# Answers {"code":1,"description":"Submitted","result":"<task id>",...}.
submitted=$(curl -sS "$URL/ig/submit/imagine" \
  -H "Authorization: Bearer $KEY" -H "content-type: application/json" \
  -d '{"prompt":"a lighthouse at dawn"}')
id=$(printf '%s' "$submitted" | sed -n 's/.*"result":"\([0-9]*\)".*/\1/p')
[ -n "$id" ] || { echo "submit failed: $submitted" >&2; exit 1; }
echo "task $id submitted"

for _ in $(seq 1 120); do
  task=$(curl -sS "$URL/ig/task/$id/fetch" -H "Authorization: Bearer $KEY")
  status=$(printf '%s' "$task" | sed -n 's/.*"status":"\([A-Z_]*\)".*/\1/p')
  case "$status" in
    SUCCESS)
      echo "SUCCESS: $(printf '%s' "$task" | sed -n 's/.*"imageUrl":"\([^"]*\)".*/\1/p')"
      exit 0 ;;
    FAILURE)
      echo "FAILURE: $task" >&2
      exit 1 ;;
  esac
  sleep 1
done
echo "task $id did not finish" >&2
exit 1
