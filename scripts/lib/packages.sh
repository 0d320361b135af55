# Sourced by scripts/setup.sh and scripts/test.sh: installs the Debian
# packages that are missing, and when that cannot be done, stops with an
# error that names each missing package and the command that installs it.

# The packages a list names that dpkg does not show as installed.
missing_packages() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

# install_packages WHO PACKAGE...: installs the missing ones (root, or sudo).
install_packages() {
  local who=$1; shift
  local missing
  mapfile -t missing < <(missing_packages "$@")
  ((${#missing[@]})) || return 0
  echo "$who: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo >/dev/null; then
      echo "$who: error: missing Debian packages: ${missing[*]}" >&2
      echo "$who: run as root, or install them first: apt-get install ${missing[*]}" >&2
      exit 1
    fi
    sudo="sudo"
  fi
  if ! { $sudo apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
    mapfile -t missing < <(missing_packages "${missing[@]}")
    echo "$who: error: could not install the Debian packages ${missing[*]}" >&2
    echo "$who: install them by hand (apt-get install ${missing[*]}), then run this again" >&2
    exit 1
  fi
}
