# A completion with gaps planted for CTest ManAndCompletionCatchGaps: no command 'arena', and no
# --eval for export-bot. Otherwise build/reference/mushroom.bash as scripts/command_reference.py wrote it.
_mushroom() {
  local cur=${COMP_WORDS[COMP_CWORD]} options=""
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "--help --version run dashboard config selfplay relabel train distill probcut-fit export-bot bot play ladder elo-curve balanced-boards analyze view replay time-use moves perft solve-endgame bench positions solve tonga grade" -- "$cur"))
    return 0
  fi
  [[ $cur == -* ]] || return 0  # a value or a file: bash's default completion
  case ${COMP_WORDS[1]} in
    run) options="--actor-id --chunk-games --config --dir --generations --help --init --parallel --poll-seconds --role --set --threads" ;;
    dashboard) options="--help" ;;
    config) options="--check --get --help --out --set" ;;
    selfplay) options="--config --dir --first-game-id --games --generations --help --jobs --model --out --set" ;;
    relabel) options="--config --data --dir --eval --help --lambda --limit --max-left --min-left --mode --probcut --set --threads" ;;
    train) options="--config --data --dir --help --init --out --set --steps" ;;
    distill) options="--config --data --help --init --out --steps --teacher" ;;
    probcut-fit) options="--eval --exact-max-left --exact-nodes --exact-shallow --games --help --max-depth --min-samples --nodes --out --pairs --play-depth --random-plies --sample-rate --samples --seed --threads --tt-bits" ;;
    export-bot) options="--agent --data-bin --help --max-bytes --model --out --probcut" ;;
    bot) options="--agent --analysis --help --model --opt --require-weights --seed" ;;
    play) options="--board-mode --first --first-opt --help --position --quiet --second --second-opt --seed" ;;
    arena) options="--a-name --b-name --b-time-ms --board-mode --boards --boards-file --clock --help --log-dir --parallel --pin --program-a --program-b --seed --setting --sprt --sprt-alpha --sprt-beta --time-ms" ;;
    ladder) options="--anchor --board-mode --boards --boards-file --clock --dir --gauntlet --help --models --parallel --pin --program --report --seed --time-ms --title" ;;
    elo-curve) options="--help --out --record" ;;
    balanced-boards) options="--agent --count --help --max-candidates --max-margin --out --parallel --seed --time-ms --trials" ;;
    analyze) options="--agent --blunder --first --help --inaccuracy --mark-cells --marks --mistake --ms --out --second --title --to-move" ;;
    view) options="--first --help --out --second --title" ;;
    replay) options="--final-only --help" ;;
    time-use) options="--band --csv --help --time-ms" ;;
    moves) options="--help --position" ;;
    perft) options="--depth --help --position" ;;
    solve-endgame) options="--help --ms --nodes --position --solver --tt-bits --wdl" ;;
    bench) options="--help --max-positions --min-moves --positions --seconds --skip-naive" ;;
    positions) options="--count --dir --help --max-left --min-left --out --seed" ;;
    solve) options="--help --palace-only" ;;
    tonga) options="--agent --candidates --games --help --parallel --playouts --seed --shallow --sizes --time-ms" ;;
    grade) options="--cpuct --device --gumbel-k --help --model --positions --seed --sims" ;;
  esac
  COMPREPLY=($(compgen -W "$options" -- "$cur"))
}
complete -o default -F _mushroom mushroom
