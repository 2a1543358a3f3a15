# Condenses a drvtrace log (DRVTRACE_TIME=1) of scripts/gpu/hotcalls/probe.c: for each labelled
# probe (between "=== mark: LABEL" and "=== mark: end"), the driver calls the marking thread
# made, one line each: name(arguments) = result, time in the driver.
#   awk -v who=NAME -f summary.awk TRACE      lines "LABEL<TAB>WHO<TAB>call" in probe order
/=== mark: / {
    line = $0
    sub(/.*=== mark: /, "", line)
    if (label != "") {
        if (pending != "") { printf "%s\t%s\t%s\n", label, who, pending; shown++ }
        if (!shown) printf "%s\t%s\t(no driver call)\n", label, who
    }
    tid = $1
    label = (line == "end") ? "" : line
    pending = ""
    shown = 0
    next
}
label == "" || $1 != tid { next }
{
    text = $0
    sub(/^\[[0-9]+\] */, "", text)
    if (text ~ /^-> /) {
        # "-> name = rc (0x..) in T us"
        name = text
        sub(/^-> /, "", name)
        sub(/ = .*/, "", name)
        rc = text
        sub(/^-> [^ ]+ = /, "", rc)
        sub(/ \(0x[0-9a-f]*\)/, "", rc)
        sub(/ \([0-9]+\)/, "", rc)
        if (pending != "" && index(pending, name "(") == 1) {
            printf "%s\t%s\t%s = %s\n", label, who, pending, rc; shown++
            pending = ""
        } else {
            if (pending != "") printf "%s\t%s\t%s\n", label, who, pending
            pending = ""
            printf "%s\t%s\t-> %s = %s\n", label, who, name, rc
            shown++
        }
    } else if (text ~ /^[A-Za-z_][A-Za-z0-9_]*\(/) {
        if (pending != "") { printf "%s\t%s\t%s\n", label, who, pending; shown++ }
        pending = text
    } else {
        if (pending != "") printf "%s\t%s\t%s\n", label, who, pending
        pending = ""
        printf "%s\t%s\t  %s\n", label, who, text
        shown++
    }
}
