#!/usr/bin/env bash
# Puts the Apache-2.0 header at the top of every tracked .java file under src/main and src/test that lacks it.
# --check lists the files without it and exits 1 if there are any.
set -euo pipefail
cd "$(dirname "$0")/.."

header='/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
'

missing=0
while IFS= read -r -d '' file; do
  if ! head -n 5 "$file" | grep -q 'Licensed under the Apache License, Version 2.0'; then
    if [ "${1:-}" = "--check" ]; then
      echo "no license header: $file"
      missing=1
    else
      { printf '%s\n' "$header"; cat "$file"; } > "$file.tmp" && mv "$file.tmp" "$file"
    fi
  fi
done < <(git ls-files -z -- '*/src/main/*.java' '*/src/test/*.java' 'src/main/*.java' 'src/test/*.java')
exit "$missing"
