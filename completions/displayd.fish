# fish completion for displayd

# The words so far that are neither options nor an option's value: the command, then (for
# profile) its verb, then the arguments.
function __displayd_words
    set -l words (commandline -opc)
    set -e words[1]
    set -l valued --config --display --backend --log-level --profile --output --seconds --layout
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
        else if contains -- $word $valued
            set skip 1
        else if not string match -q -- '-*' $word
            echo $word
        end
    end
end

# True when no command is given yet.
function __displayd_needs_command
    test (count (__displayd_words)) -eq 0
end

# True when the command is one of those named.
function __displayd_using
    set -l words (__displayd_words)
    test (count $words) -ge 1; and contains -- $words[1] $argv
end

# True when the command is profile with no verb yet.
function __displayd_needs_verb
    set -l words (__displayd_words)
    test (count $words) -eq 1; and test $words[1] = profile
end

# True when the command is profile and its verb one of those named.
function __displayd_profile_using
    set -l words (__displayd_words)
    test (count $words) -ge 2; and test $words[1] = profile; and contains -- $words[2] $argv
end

# True for profile import before its tool is named.
function __displayd_needs_import_tool
    set -l words (__displayd_words)
    test (count $words) -eq 2; and test $words[1] = profile; and test $words[2] = import
end

function __displayd_outputs
    command -q displayd; or return
    displayd outputs 2>/dev/null | awk 'NR>1 {print $1}'
end

function __displayd_profiles
    command -q displayd; or return
    displayd profile list 2>/dev/null | sed -n 's/^[* ] \([^ ]*\) .*/\1/p'
end

complete -c displayd -f

complete -c displayd -n __displayd_needs_command -a run -d 'run the display manager'
complete -c displayd -n __displayd_needs_command -a status -d 'what the running daemon manages'
complete -c displayd -n __displayd_needs_command -a reload -d 'make the running daemon read its config again'
complete -c displayd -n __displayd_needs_command -a apply -d 'arrange the desk once as the daemon would at start'
complete -c displayd -n __displayd_needs_command -a check-config -d 'validate the config and show what each monitor would get'
complete -c displayd -n __displayd_needs_command -a outputs -d 'list every RandR output'
complete -c displayd -n __displayd_needs_command -a modes -d 'list the modes of connected or named outputs'
complete -c displayd -n __displayd_needs_command -a watch -d 'print hot-plug events as they happen'
complete -c displayd -n __displayd_needs_command -a edid -d "decode EDID files or an output's EDID"
complete -c displayd -n __displayd_needs_command -a screenshot -d 'save the screen or one output as a PNG'
complete -c displayd -n __displayd_needs_command -a identify -d "show each lit output's name, monitor and mode on it"
complete -c displayd -n __displayd_needs_command -a profile -d 'list layout profiles, switch to one, save the current layout, import some'
complete -c displayd -n __displayd_needs_command -l version -d 'print the version'

# Every command and profile verb takes --help.
complete -c displayd -l help -d 'show the help'

# The options each command takes, as `displayd COMMAND --help` lists them.
complete -c displayd -n '__displayd_using run apply' -l config -r -F -d 'config file'
complete -c displayd -n '__displayd_using run' -l log-level -x -a 'error warning info debug' -d 'log level'
complete -c displayd -n '__displayd_using status outputs modes watch edid' -l json -d 'JSON output'
complete -c displayd -n '__displayd_using outputs modes' -l probe -d 're-probe connectors'
complete -c displayd -n '__displayd_using apply' -l profile -x -a '(__displayd_profiles)' -d 'this profile'
complete -c displayd -n '__displayd_using apply' -l dry-run -d 'print the plan, change nothing'
complete -c displayd -n '__displayd_using edid screenshot' -l output -x -a '(__displayd_outputs)' -d 'output'
complete -c displayd -n '__displayd_using identify' -l seconds -x -a '3 5 10' -d 'how long (1-600)'
complete -c displayd -n '__displayd_using run status reload apply check-config outputs modes watch edid screenshot identify' \
    -l display -x -a '(echo $DISPLAY)' -d 'X display'
complete -c displayd -n '__displayd_using run apply check-config outputs modes watch screenshot identify' \
    -l backend -x -a 'x11 wayland' -d 'display server'

# The arguments: files for check-config, edid and screenshot, outputs for modes.
complete -c displayd -n '__displayd_using check-config edid screenshot' -F
complete -c displayd -n '__displayd_using modes' -a '(__displayd_outputs)'

# profile's verbs, then each verb's options and arguments.
complete -c displayd -n __displayd_needs_verb -a list -d 'each profile, whether it matches now, the active one'
complete -c displayd -n __displayd_needs_verb -a switch -d 'put the desk in a profile or a built-in layout'
complete -c displayd -n __displayd_needs_verb -a cycle -d 'the next matching profile or built-in layout'
complete -c displayd -n __displayd_needs_verb -a save -d 'print the current layout as one profile'
complete -c displayd -n __displayd_needs_verb -a import -d "print (or --write) autorandr's or kanshi's profiles as displayd profiles"
complete -c displayd -n '__displayd_profile_using list' -l json -d 'JSON output'
complete -c displayd -n '__displayd_profile_using list switch cycle save' -l display -x -a '(echo $DISPLAY)' -d 'X display'
complete -c displayd -n '__displayd_profile_using switch' -l layout -x \
    -a 'extend-right extend-left extend-above mirror external-only main-only' -d 'a built-in layout'
complete -c displayd -n '__displayd_profile_using switch' -l auto -d 'automatic choice again'
complete -c displayd -n '__displayd_profile_using switch' -a '(__displayd_profiles)'
complete -c displayd -n '__displayd_profile_using save import' -l write -d 'append to the config and reload the daemon'
complete -c displayd -n __displayd_needs_import_tool -a 'autorandr kanshi'
complete -c displayd -n '__displayd_profile_using import; and not __displayd_needs_import_tool' -F
