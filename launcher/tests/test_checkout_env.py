"""./blkscale's PYTHONPATH is for the command's own interpreter: QEMU and
the other children get the user's environment back, whose size counts
against ARG_MAX (blkscale_cli/checkout.py)."""

from launchertest import REPO

from blkscale_cli.checkout import give_back_environment, package_folders


def test_the_checkout_folders_leave_pythonpath_again():
    ours = ":".join(package_folders())
    assert ours == ":".join(str(REPO / d)
                            for d in ("cli", "launcher", "bench",
                                        "reports"))
    env = {"PYTHONPATH": ours + ":/users/own", "HOME": "/h"}
    give_back_environment(env)
    assert env == {"PYTHONPATH": "/users/own", "HOME": "/h"}
    env = {"PYTHONPATH": ours}
    give_back_environment(env)
    assert env == {}


def test_a_pythonpath_of_the_users_own_stays():
    ours = ":".join(package_folders())
    for value in ("/users/own", "/users/own:" + ours, ""):
        env = {"PYTHONPATH": value}
        give_back_environment(env)
        assert env == {"PYTHONPATH": value}



def test_home_is_taken_before_the_subcommand_only():
    from blkscale_cli.home import take_home
    for argv, home in ((["--home", "/h", "plan", "t"], "/h"),
                       (["--home=/h/", "plan"], "/h"),
                       (["--version"], None),
                       (["plan", "--home", "/h"], None),
                       (["validate", "--home"], None)):
        env = {}
        take_home(argv, env)
        assert env.get("BLKSCALE_HOME") == home, argv
