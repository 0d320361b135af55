# `cpack -G DEB` in the build folder: mushroom_<version>_amd64.deb, holding
# what cmake/Install.cmake installs under /usr, its dependencies computed
# from the binaries (dpkg-shlibdeps: LibTorch, HDF5, the C++ runtime).
# `apt install ./mushroom_*.deb` pulls them in.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mushroom)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "mushroom dev <dev@mushroom.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "self-play engine and contest bot for NYPC Code Battle's mushroom game")
# Debian's extended description: lines under 80 columns, a blank line between paragraphs.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "mushroom trains a bot for the mushroom game of NYPC Code Battle (a 10x17\n"
    "board of digits; players take rectangles that sum to 10) by self-play\n"
    "reinforcement learning, on two CPU cores, a GPU box or a Slurm cluster, and\n"
    "exports it as the one C++ source file the contest judge compiles. The\n"
    "contest bot is alpha-beta with Multi-ProbCut, an exact endgame solver and a\n"
    "learned NNUE-style evaluation.\n"
    "\n"
    "The package holds the mushroom command, the trained defaults (the learned\n"
    "evaluation and its fit, the default conv net, the committed submission) and\n"
    "the commented run configs in /usr/share/mushroom, the guides in\n"
    "/usr/share/doc/mushroom, a man page and bash completion.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# g++ builds the exported submission; gnuplot draws a run's plots.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, gnuplot-nox, bash-completion")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
