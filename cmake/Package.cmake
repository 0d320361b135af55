# `cpack -G DEB` in the build folder: mushroom_<version>_amd64.deb, holding
# what cmake/Install.cmake installs under /usr, its dependencies computed
# from the binaries (dpkg-shlibdeps: LibTorch, HDF5, the C++ runtime).
# `apt install ./mushroom_*.deb` pulls them in.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mushroom)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "mushroom dev <dev@mushroom.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "self-play engine and contest bot for NYPC Code Battle's mushroom game")
set(CPACK_PACKAGE_DESCRIPTION
    "mushroom trains a bot for the mushroom game of NYPC Code Battle (a 10x17 board of digits; players take\n"
    "rectangles that sum to 10) by self-play reinforcement learning, on two CPU cores, a GPU box or a Slurm\n"
    "cluster, and exports it as the one C++ source file the contest judge compiles. The contest bot is\n"
    "alpha-beta with Multi-ProbCut, an exact endgame solver and a learned NNUE-style evaluation.\n"
    "\n"
    "The package holds the mushroom command, the trained defaults (the learned evaluation and its fit, the\n"
    "default conv net, the committed submission) and the commented run configs in /usr/share/mushroom,\n"
    "the guides in /usr/share/doc/mushroom, a man page and bash completion.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# g++ builds the exported submission; gnuplot draws a run's plots.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++, gnuplot-nox, bash-completion")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
