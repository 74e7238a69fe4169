# bash completion for displayd
_displayd() {
  local cur prev commands
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD-1]}
  commands="run status reload apply check-config outputs modes watch edid screenshot identify profile"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi
  case "$prev" in
    --config|edid|check-config) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --log-level) COMPREPLY=($(compgen -W "error warning info debug" -- "$cur")); return ;;
    --seconds) COMPREPLY=($(compgen -W "3 5 10" -- "$cur")); return ;;
    --display) COMPREPLY=($(compgen -W "${DISPLAY:-:0}" -- "$cur")); return ;;
    --backend) COMPREPLY=($(compgen -W "x11 wayland" -- "$cur")); return ;;
    --layout)
      COMPREPLY=($(compgen -W "extend-right extend-left extend-above mirror external-only main-only" -- "$cur")); return ;;
    --profile)
      COMPREPLY=($(compgen -W "$(displayd profile list 2>/dev/null | sed -n 's/^[* ] \([^ ]*\) .*/\1/p')" -- "$cur")); return ;;
    --output)
      COMPREPLY=($(compgen -W "$(displayd outputs 2>/dev/null | awk 'NR>1 {print $1}')" -- "$cur")); return ;;
  esac
  case "${COMP_WORDS[1]}" in
    run) COMPREPLY=($(compgen -W "--config --display --backend --log-level --help" -- "$cur")) ;;
    status) COMPREPLY=($(compgen -W "--json --display --help" -- "$cur")) ;;
    reload) COMPREPLY=($(compgen -W "--display --help" -- "$cur")) ;;
    apply) COMPREPLY=($(compgen -W "--profile --dry-run --config --display --backend --help" -- "$cur")) ;;
    check-config) COMPREPLY=($(compgen -W "--display --backend --help" -- "$cur")) ;;
    outputs) COMPREPLY=($(compgen -W "--json --probe --display --backend --help" -- "$cur")) ;;
    modes)
      COMPREPLY=($(compgen -W "--json --probe --display --backend --help $(displayd outputs 2>/dev/null | awk 'NR>1 {print $1}')" -- "$cur")) ;;
    watch) COMPREPLY=($(compgen -W "--json --display --backend --help" -- "$cur")) ;;
    edid) COMPREPLY=($(compgen -W "--json --output --display --help" -- "$cur") $(compgen -f -- "$cur")) ;;
    screenshot) COMPREPLY=($(compgen -W "--output --display --backend --help" -- "$cur") $(compgen -f -- "$cur")) ;;
    identify) COMPREPLY=($(compgen -W "--seconds --display --backend --help" -- "$cur")) ;;
    profile)
      if [ "$COMP_CWORD" -eq 2 ]; then
        COMPREPLY=($(compgen -W "list switch cycle save import --help" -- "$cur"))
        return
      fi
      case "${COMP_WORDS[2]}" in
        list) COMPREPLY=($(compgen -W "--json --display --help" -- "$cur")) ;;
        switch)
          COMPREPLY=($(compgen -W "--layout --auto --display --help $(displayd profile list 2>/dev/null | sed -n 's/^[* ] \([^ ]*\) .*/\1/p')" -- "$cur")) ;;
        cycle) COMPREPLY=($(compgen -W "--display --help" -- "$cur")) ;;
        save) COMPREPLY=($(compgen -W "--write --display --help" -- "$cur")) ;;
        import)
          if [ "$COMP_CWORD" -eq 3 ]; then
            COMPREPLY=($(compgen -W "autorandr kanshi" -- "$cur"))
          else
            COMPREPLY=($(compgen -W "--write --help" -- "$cur") $(compgen -f -- "$cur"))
          fi ;;
      esac ;;
  esac
}
complete -F _displayd displayd
