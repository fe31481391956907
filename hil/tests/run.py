#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Runs the hardware-in-the-loop tests: inside the QEMU guest (hil/vm.sh
starts it, hil/guest.sh runs this), where uinput exists. Each test creates
virtual devices with python3-libevdev, runs the real stylusd, and checks
what it prints and answers. The tests of the modules below run in the
order of their names (TESTS lists them; a `test_` function left out of it
fails the run); prints a PASS or FAIL line for each, then 'hil: N passed,
N failed'.

    run.py --stylusd PATH [--only NAME]"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(REPO, "hil"), os.path.join(REPO, "Tests", "support")]   # the harness; the runner, launcher, client
import harness  # noqa: E402
from stylustest import run_tests  # noqa: E402

import action_tests  # noqa: E402  (key: and click: bindings: the virtual keyboard and pointer)
import device_tests  # noqa: E402  (pens and pads coming and going, probe, udev, systemd, a recording)
import eraser_tests  # noqa: E402  (the pen's eraser end in both eraser modes)
import filter_behaviour_tests  # noqa: E402  (filter mode: what the desktop sees of the clone)
import filter_safety_tests  # noqa: E402  (filter mode: waiting to grab, kill -9, the watchdog)
import filter_tests  # noqa: E402  (filter mode: the grabbed pen's buttons on its virtual clone)
import flood_tests  # noqa: E402  (the loop under a flood of devices and reload)
import output_switch_tests  # noqa: E402  (stylusctl output: observe frees the pen, filter grabs it)
import pen_tool_tests  # noqa: E402  (each physical pen its own style and bindings)

# In the order of their names, as they always ran.
TESTS = [flood_tests.test_a_flood_of_devices_and_reload_is_answered_and_loses_no_pen_sample,
         device_tests.test_a_machine_with_no_pen_says_why_it_runs_button_only,
         device_tests.test_a_pen_the_daemon_cannot_read_is_reported_and_it_runs_button_only,
         device_tests.test_a_real_recording_gives_the_same_double_presses_live_and_offline,
         action_tests.test_action_click_right_is_a_right_click_on_the_virtual_pointer,
         action_tests.test_action_key_ctrl_z_is_ctrl_down_z_down_z_up_ctrl_up,
         action_tests.test_action_kill_9_between_press_and_release_leaves_nothing_held,
         device_tests.test_an_idle_daemon_makes_no_wakeups,
         device_tests.test_an_unreadable_node_gets_the_reason_and_the_fix,
         device_tests.test_bounce_within_the_debounce_window_does_not_double,
         device_tests.test_button_only_until_a_pen_is_hotplugged,
         filter_behaviour_tests.test_filter_a_binding_for_a_button_the_pad_lacks_leaves_it_alone_and_a_reload_that_binds_one_grabs_it,
         filter_behaviour_tests.test_filter_a_bound_pad_button_is_withheld_others_pass_and_unbinding_releases_the_pad,
         filter_behaviour_tests.test_filter_a_palette_tap_picks_a_colour_and_neither_draws_nor_reaches_the_desktop,
         filter_behaviour_tests.test_filter_a_press_in_the_frame_that_lifts_the_tip_is_withheld_with_its_double_press,
         filter_behaviour_tests.test_filter_a_recording_reaches_the_clone_as_the_replay_predicts,
         filter_behaviour_tests.test_filter_canvas_takes_the_clone_out_of_proximity_and_gives_it_back,
         filter_behaviour_tests.test_filter_clone_is_a_tablet_with_the_real_pens_capabilities,
         filter_tests.test_filter_double_press_never_reaches_the_clone,
         filter_safety_tests.test_filter_grab_waits_for_a_held_button_and_the_pen_to_leave,
         filter_tests.test_filter_hold_arrives_as_a_hold_and_a_button_drag_works,
         filter_safety_tests.test_filter_kill_9_frees_the_node_and_removes_the_clone,
         filter_behaviour_tests.test_filter_precision_slows_a_light_stroke_and_hovering_is_exact,
         filter_tests.test_filter_single_click_arrives_late_by_at_most_the_interval,
         filter_tests.test_filter_unbound_button_passes_at_once,
         filter_safety_tests.test_filter_watchdog_releases_the_pen_of_a_hung_loop_within_2_s,
         filter_behaviour_tests.test_filter_without_capture_the_clone_follows_the_pen_over_the_open_canvas_and_status_says_so,
         device_tests.test_four_pens_at_once_each_draws_and_toggles,
         device_tests.test_nodes_that_vanish_before_they_can_be_opened_are_reported_not_fatal,
         output_switch_tests.test_output_observe_frees_the_node_at_once_and_filter_grabs_it_again,
         device_tests.test_pad_buttons_are_probed_and_bindable,
         device_tests.test_presses_wider_apart_than_the_interval_do_not_double,
         device_tests.test_pressure_ramp_makes_precision_active_then_inactive,
         device_tests.test_probe_describes_pens_displays_and_pads,
         device_tests.test_repeated_unplug_and_replug_mid_stroke_keeps_every_stroke,
         device_tests.test_scripted_double_press_toggles_the_canvas,
         device_tests.test_systemd_accepts_the_units,
         eraser_tests.test_the_eraser_end_erases_the_ink_under_it_and_with_eraser_stroke_whole_strokes,
         device_tests.test_the_udev_rule_gives_tablets_the_uaccess_tag,
         device_tests.test_three_button_pen_reports_its_third_button,
         pen_tool_tests.test_two_pens_with_their_own_serials_keep_their_own_style_and_bindings,
         pen_tool_tests.test_in_filter_mode_the_clone_gets_a_double_press_unless_the_pen_in_proximity_binds_it,
         device_tests.test_unplug_mid_stroke_ends_the_stroke_and_the_daemon_keeps_running]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stylusd", required=True)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    harness.STYLUSD = a.stylusd
    return run_tests("hil", TESTS, a.only)


if __name__ == "__main__":
    sys.exit(main())
