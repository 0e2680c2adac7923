#!/bin/sh
# Written by `slotgen rebalance --format commands`: the plan at the end of this file,
# carried out with the server's own CLI. Run it as it stands (`sh plan.sh`); `CLI=redis-cli
# sh plan.sh` runs it with another CLI. A password is the CLI's own REDISCLI_AUTH. A
# command refused stops the script (`-e`); a slot it leaves half moved is finished by the
# next `slotgen rebalance --apply`.
set -eu
CLI=${CLI:-@CLI@}
BATCH=@BATCH@
TIMEOUT_MS=@TIMEOUT_MS@
# an atomic job or task that shows no progress for this many seconds is cancelled
STALL_S=@STALL_S@
USER_NAME=@USER@
@PASSWORD@
cli() {
    node=$1
    shift
    "$CLI" -h "${node%:*}" -p "${node##*:}" @OPTIONS@ "$@"
}

# MIGRATE's AUTH or AUTH2, quoted as the CLI reads a line of its standard input; the
# MIGRATE line goes to the CLI on its standard input, so that the password is never on a
# command line (where `ps` shows it)
auth() {
    [ -n "${REDISCLI_AUTH:-}" ] || return 0
    quoted=$(printf '%s' "$REDISCLI_AUTH" | sed 's/[\\"]/\\&/g')
    if [ -n "$USER_NAME" ]; then
        printf ' AUTH2 "%s" "%s"' "$(printf '%s' "$USER_NAME" | sed 's/[\\"]/\\&/g')" "$quoted"
    else
        printf ' AUTH "%s"' "$quoted"
    fi
}

# The classic sequence (the Redis Cluster specification, "Live resharding") for one slot:
# move_slot SLOT SOURCE TARGET SOURCE-ID TARGET-ID [OTHER-PRIMARY...]
move_slot() {
    slot=$1 src=$2 dst=$3 src_id=$4 dst_id=$5
    shift 5
    cli "$dst" -e CLUSTER SETSLOT "$slot" IMPORTING "$src_id" >/dev/null
    cli "$src" -e CLUSTER SETSLOT "$slot" MIGRATING "$dst_id" >/dev/null
    dbs=$(cli "$src" CONFIG GET cluster-databases | sed -n 2p)
    db=0
    while [ "$db" -lt "${dbs:-1}" ]; do
        while :; do
            # one key a line, quoted as the CLI quotes (never a raw line feed)
            keys=$(cli "$src" -n "$db" --no-raw -e CLUSTER GETKEYSINSLOT "$slot" "$BATCH" |
                sed -n 's/^ *[0-9][0-9]*) //p')
            [ -n "$keys" ] || break
            old=$IFS
            IFS='
'
            set -f
            said=$({
                printf 'MIGRATE "%s" %s "" %s %s%s KEYS' "${dst%:*}" "${dst##*:}" "$db" \
                    "$TIMEOUT_MS" "$(auth)"
                printf ' %s' $keys
                printf '\n'
            } | cli "$src" -n "$db")
            set +f
            IFS=$old
            if [ "$said" != OK ]; then
                echo "MIGRATE of slot $slot from $src to $dst answered: $said" >&2
                exit 1
            fi
        done
        db=$((db + 1))
    done
    cli "$dst" -e CLUSTER SETSLOT "$slot" NODE "$dst_id" >/dev/null
    cli "$src" -e CLUSTER SETSLOT "$slot" NODE "$dst_id" >/dev/null
    # the others learn it by the cluster bus too: one that does not answer is no reason to stop
    for node in "$@"; do
        cli "$node" CLUSTER SETSLOT "$slot" NODE "$dst_id" >/dev/null || true
    done
    echo "moved slot $slot from $src to $dst"
}

# Valkey 9's atomic slot migration: migrate_slots SOURCE TARGET-ID FIRST LAST [FIRST LAST...]
migrate_slots() {
    src=$1 dst_id=$2
    shift 2
    before=$(cli "$src" CLUSTER GETSLOTMIGRATIONS | awk 'p { print; p = 0 } $0 == "name" { p = 1 }')
    cli "$src" -e CLUSTER MIGRATESLOTS SLOTSRANGE "$@" NODE "$dst_id" >/dev/null
    seen='' since=$(date +%s)
    while :; do
        # the job's fields, one a line (its times and bytes left show its progress)
        job=$(cli "$src" CLUSTER GETSLOTMIGRATIONS | awk -v before="$before" '
            BEGIN { n = split(before, old, "\n"); for (i = 1; i <= n; i++) seen[old[i]] = 1 }
            $0 == "name" { getline; mine = !($0 in seen); if (mine) print "name" }
            mine { print }')
        state=$(printf '%s\n' "$job" | awk '$0 == "state" { getline; print; exit }')
        case $state in
        success) break ;;
        failed | cancelled)
            echo "the job moving slots $* from $src ended $state" >&2
            exit 1
            ;;
        esac
        if [ "$job" != "$seen" ]; then
            seen=$job since=$(date +%s)
        elif [ $(($(date +%s) - since)) -ge "$STALL_S" ]; then
            cli "$src" CLUSTER CANCELSLOTMIGRATIONS >/dev/null || true
            echo "the job moving slots $* from $src showed no progress for $STALL_S s (state ${state:-unknown}): cancelled, so its slots stay with $src; run the script again, or slotgen rebalance --apply" >&2
            exit 1
        fi
        sleep 0.05
    done
    echo "moved slots $* from $src"
}

# Redis 8.4's atomic slot migration, on the target: import_slots TARGET FIRST LAST [...]
# (printed only: slotgen has had no Redis 8.4 server to run it against)
import_slots() {
    dst=$1
    shift
    id=$(cli "$dst" -e CLUSTER MIGRATION IMPORT "$@")
    seen='' since=$(date +%s)
    while :; do
        task=$(cli "$dst" CLUSTER MIGRATION STATUS ID "$id")
        state=$(printf '%s\n' "$task" | awk 'p { print; exit } $0 == "state" { p = 1 }')
        case $state in
        completed) break ;;
        failed | canceled | cancelled)
            echo "the task importing slots $* into $dst ended $state" >&2
            exit 1
            ;;
        esac
        if [ "$task" != "$seen" ]; then
            seen=$task since=$(date +%s)
        elif [ $(($(date +%s) - since)) -ge "$STALL_S" ]; then
            cli "$dst" CLUSTER MIGRATION CANCEL ID "$id" >/dev/null || true
            echo "the task importing slots $* into $dst showed no progress for $STALL_S s (state ${state:-unknown}): cancelled; run the script again, or slotgen rebalance --apply" >&2
            exit 1
        fi
        sleep 0.05
    done
    echo "imported slots $* into $dst"
}

# The plan
