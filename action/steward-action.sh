#!/usr/bin/env bash
# The logic of the steward GitHub Action (action.yml), kept here so it is tested like any script.
#
#   steward-action.sh cache-key   where the built steward is cached, and under which key
#   steward-action.sh install     build steward from the action's own source once, install it
#                                 with its production dependencies only (the cache keeps it)
#   steward-action.sh run         run the command, then `report` what it did
#   steward-action.sh argv        print the steward command `run` would run (NUL-separated);
#                                 prepare and token-variable are run's other parts, for tests
#   steward-action.sh report CODE outputs, job summary, pull-request comment for a finished run
#
# Inputs come as INPUT_* variables (action.yml passes them: composite actions get none by
# themselves). Nothing here contains a `${{ }}` expression: every value arrives as a variable.
set -euo pipefail

ACTION_ROOT="${STEWARD_ACTION_SOURCE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
INSTALL_DIR="${STEWARD_ACTION_HOME:-$HOME/.steward-action}"
WORK="${RUNNER_TEMP:?RUNNER_TEMP is not set}/steward"
# GitHub refuses a comment body longer than 65,536 characters.
COMMENT_LIMIT=65536

command_name="${INPUT_COMMAND:-plan}"
environment="${INPUT_ENVIRONMENT:-}"

die() {
  echo "::error title=steward action::$1"
  exit 1
}

output() {
  echo "$1=$2" >> "$GITHUB_OUTPUT"
}

# The source files steward is built from: their hash names the cached build, so a new ref of the
# action (a new version, or a branch that moved) builds again, and the same ref never does.
cache_key() {
  local hash node_major
  hash=$(cd "$ACTION_ROOT" && { find bin src schemas examples package.json package-lock.json tsconfig.json tsconfig.build.json -type f 2> /dev/null || true; } |
    LC_ALL=C sort | xargs -r sha256sum | sha256sum | cut -c1-20)
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  output key "steward-${RUNNER_OS:-Linux}-node${node_major}-${hash}"
  output path "$INSTALL_DIR"
}

# On a cache miss only: the dev dependencies (TypeScript) build steward in the action's own
# directory, `npm pack` makes the same package a release would be, and that is installed with
# production dependencies only into INSTALL_DIR, which the cache then keeps.
install() {
  local packed
  packed=$(mktemp -d)
  (
    cd "$ACTION_ROOT"
    npm ci --no-audit --no-fund --ignore-scripts
    npm pack --pack-destination "$packed" > /dev/null
  )
  rm -rf "$INSTALL_DIR"
  mkdir -p "$INSTALL_DIR"
  echo '{ "name": "steward-action-install", "private": true }' > "$INSTALL_DIR/package.json"
  npm install --prefix "$INSTALL_DIR" --omit=dev --no-audit --no-fund "$packed"/steward-*.tgz
  rm -rf "$packed"
}

# Puts the installed steward on the PATH of the job's later steps.
activate() {
  [ -x "$INSTALL_DIR/node_modules/.bin/steward" ] || die "steward is not installed in $INSTALL_DIR"
  echo "$INSTALL_DIR/node_modules/.bin" >> "$GITHUB_PATH"
}

# The plan file: the one to apply, or where plan, drift and diff save theirs; validate has none.
plan_file() {
  case "$command_name" in
    apply) printf '%s' "${INPUT_PLAN_FILE:-}" ;;
    validate) ;;
    *) printf '%s' "${INPUT_PLAN_FILE:-$WORK/plan.json}" ;;
  esac
}

# The steward command line for the inputs, into the array `argv`.
build_argv() {
  local extra=() split
  if [ -n "${INPUT_ARGS:-}" ]; then
    # Split like a shell (quotes respected) without evaluating anything.
    split=$(mktemp)
    printf '%s' "$INPUT_ARGS" | xargs printf '%s\0' > "$split" 2> /dev/null || die "cannot split the input args (an unmatched quote?): $INPUT_ARGS"
    mapfile -d '' extra < "$split"
    rm -f "$split"
  fi
  local target=()
  [ -n "${INPUT_CONFIG:-}" ] && target+=(--config "$INPUT_CONFIG")
  local file
  file=$(plan_file)
  case "$command_name" in
    validate)
      argv=(validate "${target[@]}")
      [ -n "$environment" ] && argv+=(--env "$environment")
      ;;
    plan | diff)
      argv=("$command_name" "${target[@]}")
      [ -n "$environment" ] && argv+=(--env "$environment")
      argv+=(--detailed-exitcode --out "$file" --markdown "$WORK/summary.md")
      ;;
    drift)
      argv=(drift "${target[@]}")
      [ -n "$environment" ] && argv+=(--env "$environment")
      argv+=(--out "$file" --markdown "$WORK/summary.md")
      ;;
    apply)
      # A saved plan names its environment (--env, when given, must agree); without one,
      # --auto-approve plans and applies at once.
      if [ -n "$file" ]; then argv=(apply "$file" "${target[@]}"); else argv=(apply "${target[@]}"); fi
      [ -n "$environment" ] && argv+=(--env "$environment")
      [ -n "$file" ] || argv+=(--auto-approve)
      ;;
    *) die "unknown command \"$command_name\": use validate, plan, apply, drift, diff or install" ;;
  esac
  argv+=("${extra[@]}")
}

# The variable the token goes into: token-env, else STEWARD_<ENVIRONMENT>_TOKEN (as init names it).
token_variable() {
  [ -n "${INPUT_TOKEN:-}" ] || return 0
  if [ -n "${INPUT_TOKEN_ENV:-}" ]; then
    printf '%s' "$INPUT_TOKEN_ENV"
    return
  fi
  [ -n "$environment" ] || die "the input token needs token-env (or environment, for STEWARD_<ENVIRONMENT>_TOKEN)"
  printf 'STEWARD_%s_TOKEN' "$(printf '%s' "$environment" | tr '[:lower:]' '[:upper:]' | tr -c 'A-Z0-9' '_')"
}

# Exports the token under its variable, masked in the log.
export_token() {
  [ -n "${INPUT_TOKEN:-}" ] || return 0
  local variable
  variable=$(token_variable)
  echo "::add-mask::$INPUT_TOKEN"
  export "$variable=$INPUT_TOKEN"
}

# A clean slate in RUNNER_TEMP: nothing of an earlier step of the job is taken for this one's.
prepare() {
  mkdir -p "$WORK"
  rm -f "$WORK/summary.md" "$WORK/stdout"
  if [ "$command_name" != "apply" ] && [ -n "$(plan_file)" ]; then rm -f "$(plan_file)"; fi
}

run() {
  prepare
  export_token
  build_argv
  local code=0
  # stdout is kept for the summary of an apply and shown in the log as it comes (pipefail: the
  # pipeline fails with steward's exit code).
  steward "${argv[@]}" | tee "$WORK/stdout" || code=$?
  report "$code"
}

# Which exit codes are a result rather than a failure: plan and diff 2 (changes) and 3
# (destructive changes), drift 2 (drift), everything else only 0. Exit 4 (the plan breaks a
# policy rule) fails the step, with the plan and its violations in the summary and the comment.
succeeded() {
  case "$command_name:$1" in
    *:0 | plan:2 | plan:3 | diff:2 | diff:3 | drift:2) return 0 ;;
    *) return 1 ;;
  esac
}

report() {
  local code="$1" file changes=false destroys=false
  file=$(plan_file)
  output exit-code "$code"
  if succeeded "$code" && [ "$code" != 0 ]; then changes=true; fi
  if [ "$code" = 3 ]; then destroys=true; fi
  # drift folds destructive drift into 2: the saved plan says whether anything is deleted or replaced.
  if [ "$changes" = true ] && [ -n "$file" ] && [ -f "$file" ] && [ "$(jq '(.summary.delete // 0) + (.summary.replace // 0)' "$file" 2> /dev/null || echo 0)" -gt 0 ]; then destroys=true; fi
  output has-changes "$changes"
  output has-destroys "$destroys"
  if [ "$command_name" != "apply" ] && [ -n "$file" ] && [ -f "$file" ]; then output plan-file "$file"; else output plan-file ""; fi
  if [ -f "$WORK/summary.md" ]; then output summary-file "$WORK/summary.md"; else output summary-file ""; fi
  if [ -f "$WORK/summary.md" ]; then
    cat "$WORK/summary.md" >> "$GITHUB_STEP_SUMMARY"
  elif [ "$command_name" = "apply" ] && [ -s "$WORK/stdout" ]; then
    summarize_apply "$code" >> "$GITHUB_STEP_SUMMARY"
  fi
  if [ "$command_name" = "plan" ] || [ "$command_name" = "diff" ]; then comment "$code"; fi
  if ! succeeded "$code"; then
    if [ "$code" = 4 ] && [ "$command_name" != validate ]; then
      echo "::error title=steward $command_name: policy violated::The plan breaks policy rule $(violated_rules "$file"); apply refuses it unless each rule is named with --override-policy. The job summary lists every violation."
    else
      echo "::error title=steward $command_name failed::steward $command_name exited with $code; see the log above."
    fi
    exit 1
  fi
}

# The policy rules a plan file says it breaks, comma-separated ("a rule" when the file says nothing).
violated_rules() {
  local rules=""
  if [ -n "$1" ] && [ -f "$1" ]; then rules=$(jq -r '[.policyViolations[]?.rule] | unique | join(", ")' "$1" 2> /dev/null | tr -cd 'A-Za-z0-9., ' || true); fi
  printf '%s' "${rules:-(see the log)}"
}

# The apply report in a code block whose fence no line of the report can close.
summarize_apply() {
  local longest fence
  longest=$({ grep -o '`*' "$WORK/stdout" || true; } | awk '{ if (length($0) > max) max = length($0) } END { print max + 0 }')
  fence=$(printf '%*s' "$((longest < 3 ? 3 : longest + 1))" '' | tr ' ' '`')
  printf '### steward apply%s\n\n' "${environment:+ to \`$environment\`}"
  [ "$1" = 0 ] || printf 'steward apply exited with %s.\n\n' "$1"
  printf '%stext\n%s\n%s\n' "$fence" "$(cat "$WORK/stdout")" "$fence"
}

# One comment per pull request and environment, found again by its hidden marker and edited.
comment() {
  local code="$1"
  [ "${INPUT_COMMENT:-true}" = "true" ] || return 0
  local number=""
  if [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ]; then
    number=$(jq -r '.pull_request.number // empty' "$GITHUB_EVENT_PATH")
  fi
  [ -n "$number" ] || return 0
  local marker="<!-- steward-plan${environment:+:$environment} -->"
  local run_url="$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID"
  local body="$WORK/comment.md"
  local footer
  footer=$(printf '\n[Run and plan file](%s) · made by steward %s.\n' "$run_url" "$command_name")
  # A plan that breaks a policy is still a plan: the comment shows it, violations first.
  if { succeeded "$code" || [ "$code" = 4 ]; } && [ -f "$WORK/summary.md" ]; then
    local cut
    cut=$(printf '\n… The plan is cut here to fit in a comment: the whole plan is in [the job summary](%s).\n' "$run_url")
    # Bytes are never fewer than characters, so counting bytes keeps under GitHub's limit.
    local room=$((COMMENT_LIMIT - ${#marker} - 1 - $(printf '%s' "$footer" | wc -c)))
    { printf '%s\n' "$marker"
      if [ "$(wc -c < "$WORK/summary.md")" -le "$room" ]; then
        cat "$WORK/summary.md"
      else
        awk -v max="$((room - $(printf '%s' "$cut" | wc -c)))" '{ size += length($0) + 1; if (size > max) exit; print }' "$WORK/summary.md"
        printf '%s\n' "$cut"
      fi
      printf '%s\n' "$footer"
    } > "$body"
  else
    printf '%s\n### steward %s\n\n❌ steward %s failed (exit code %s): the configuration is invalid or planning failed. See [the run](%s).\n' \
      "$marker" "$command_name" "$command_name" "$code" "$run_url" > "$body"
  fi
  # A comment that cannot be written is a warning: the plan itself is in the job summary.
  local existing
  if ! existing=$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$number/comments" \
    --jq "[.[] | select(.user.type == \"Bot\" and (.body | startswith(\"$marker\")))][0].id // empty" | head -n 1); then
    echo "::warning title=No plan comment::Could not read the comments of pull request #$number (does the job have pull-requests: write?); the plan is in the job summary."
    return 0
  fi
  if [ -n "$existing" ]; then
    gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$existing" -F "body=@$body" > /dev/null &&
      echo "Updated the plan comment on pull request #$number." ||
      echo "::warning title=No plan comment::Could not update the plan comment on pull request #$number; the plan is in the job summary."
  else
    gh api --method POST "repos/$GITHUB_REPOSITORY/issues/$number/comments" -F "body=@$body" > /dev/null &&
      echo "Commented the plan on pull request #$number." ||
      echo "::warning title=No plan comment::Could not comment on pull request #$number; the plan is in the job summary."
  fi
}

case "${1:-}" in
  cache-key) cache_key ;;
  install) install ;;
  activate) activate ;;
  run) run ;;
  prepare) prepare ;;
  token-variable) token_variable ;;
  argv)
    build_argv
    printf '%s\0' "${argv[@]}"
    ;;
  report) report "${2:?report needs the exit code}" ;;
  *) die "usage: steward-action.sh cache-key|install|activate|run|prepare|token-variable|argv|report CODE" ;;
esac
