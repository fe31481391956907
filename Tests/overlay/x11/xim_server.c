// SPDX-License-Identifier: MIT
// A small XIM server for overlay_test.py, with xcb-imdkit's server API: `xim_server NAME`
// serves @im=NAME on $DISPLAY. Every key a client forwards to it is handed back, except F2,
// which shows the preedit "にほんご" (underlined feedback), F3, which takes the preedit
// away and commits "日本語 é" instead, F4, after which it handles nothing any more (a hung
// IM: it still reads its X events, so the client's requests do not block, but answers none),
// F5, which holds back the commit of "late" until the client takes the focus off that context
// (an answer that comes after the client left the text), and F6, after which it takes every
// key without a word while still answering requests (an IM choosing among candidates), and
// F7, after which it hands each press back one press late, the last when the client takes
// the focus off its context (an IM answering slower than the keys come). It says on stdout
// what it did, a line each (ready, ic, preedit, commit, key for a press, release, mute,
// swallow, pending, late, behind, held), so the test waits for it rather than for time.
#include <xcb-imdkit/encoding.h>
#include <xcb-imdkit/imdkit.h>
#include <xcb/xcb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const preedit_text = "にほんご";
static const char *const commit_text = "日本語 é";
static const uint32_t preedit_chars = 4;

static xcb_im_t *im;
static xcb_keycode_t f2, f3, f4, f5, f6, f7;
static int mute;   // F4 came: no answer to anything
static int swallow;   // F6 came: keys taken without a word
static xcb_im_input_context_t *late;   // F5 came in this context: "late" is committed when it loses the focus
static uint32_t shown;   // characters of preedit the client shows
static int behind;   // F7 came: each press handed back one press late
static xcb_key_press_event_t held;   // the press held back since F7, and its context
static xcb_im_input_context_t *held_ic;

static void say(const char *line) {
    printf("%s\n", line);
    fflush(stdout);
}

// The key codes of F2 to F7 in the server's core keymap.
static void find_keys(xcb_connection_t *c) {
    const xcb_setup_t *setup = xcb_get_setup(c);
    uint8_t count = setup->max_keycode - setup->min_keycode + 1;
    xcb_get_keyboard_mapping_reply_t *reply =
        xcb_get_keyboard_mapping_reply(c, xcb_get_keyboard_mapping(c, setup->min_keycode, count), NULL);
    if (!reply) return;
    xcb_keysym_t *syms = xcb_get_keyboard_mapping_keysyms(reply);
    int per = reply->keysyms_per_keycode;
    for (int i = 0; i < count && per > 0; i++) {
        if (syms[i * per] == 0xffbf && !f2) f2 = setup->min_keycode + i;
        if (syms[i * per] == 0xffc0 && !f3) f3 = setup->min_keycode + i;
        if (syms[i * per] == 0xffc1 && !f4) f4 = setup->min_keycode + i;
        if (syms[i * per] == 0xffc2 && !f5) f5 = setup->min_keycode + i;
        if (syms[i * per] == 0xffc3 && !f6) f6 = setup->min_keycode + i;
        if (syms[i * per] == 0xffc4 && !f7) f7 = setup->min_keycode + i;
    }
    free(reply);
}

// Replaces the client's whole preedit with `utf8` (NULL: none).
static void draw_preedit(xcb_im_input_context_t *ic, const char *utf8, uint32_t chars) {
    xcb_im_preedit_draw_fr_t frame;
    memset(&frame, 0, sizeof frame);
    frame.caret = chars;
    frame.chg_first = 0;
    frame.chg_length = shown;
    char *text = NULL;
    uint32_t feedback[16];
    if (utf8) {
        size_t length = 0;
        text = xcb_utf8_to_compound_text(utf8, strlen(utf8), &length);
        frame.length_of_preedit_string = (uint16_t)length;
        frame.preedit_string = (uint8_t *)text;
        for (uint32_t i = 0; i < chars && i < 16; i++) feedback[i] = XCB_XIM_UNDERLINE;
        frame.feedback_array.size = chars;
        frame.feedback_array.items = feedback;
    } else {
        frame.status = 1 | 2;   // no string, no feedback: the preedit is deleted
    }
    xcb_im_preedit_draw_callback(im, ic, &frame);
    free(text);
    shown = utf8 ? chars : 0;
}

static void callback(xcb_im_t *server, xcb_im_client_t *client, xcb_im_input_context_t *ic,
                     const xcb_im_packet_header_fr_t *hdr, void *frame, void *arg, void *user_data) {
    (void)client; (void)frame; (void)user_data;
    if (mute) return;
    if (swallow && hdr->major_opcode == XCB_XIM_FORWARD_EVENT) return;
    switch (hdr->major_opcode) {
    case XCB_XIM_CREATE_IC:
        say("ic");
        break;
    case XCB_XIM_UNSET_IC_FOCUS:
        if (ic && ic == held_ic) {
            xcb_im_forward_event(server, ic, &held);
            held_ic = NULL;
            say("key");
        }
        if (ic && ic == late) {
            xcb_im_commit_string(server, ic, XCB_XIM_LOOKUP_CHARS, "late", 4, 0);
            late = NULL;
            say("late");
        }
        break;
    case XCB_XIM_DESTROY_IC:
        if (ic == late) late = NULL;
        if (ic == held_ic) held_ic = NULL;
        break;
    case XCB_XIM_FORWARD_EVENT: {
        xcb_key_press_event_t *event = arg;
        int press = (event->response_type & 0x7f) == XCB_KEY_PRESS;
        if (press && f5 && event->detail == f5) {
            late = ic;
            say("pending");
        } else if (press && f4 && event->detail == f4) {
            mute = 1;
            say("mute");
        } else if (press && f6 && event->detail == f6) {
            swallow = 1;
            say("swallow");
        } else if (press && f7 && event->detail == f7) {
            behind = 1;
            say("behind");
        } else if (press && behind) {
            if (held_ic) {
                xcb_im_forward_event(server, held_ic, &held);
                say("key");
            }
            held = *event;
            held_ic = ic;
            say("held");
        } else if (press && f2 && event->detail == f2) {
            xcb_im_preedit_start_callback(server, ic);
            draw_preedit(ic, preedit_text, preedit_chars);
            say("preedit");
        } else if (press && f3 && event->detail == f3) {
            if (shown) draw_preedit(ic, NULL, 0);
            size_t length = 0;
            char *text = xcb_utf8_to_compound_text(commit_text, strlen(commit_text), &length);
            xcb_im_commit_string(server, ic, XCB_XIM_LOOKUP_CHARS, text, (uint32_t)length, 0);
            free(text);
            xcb_im_preedit_done_callback(server, ic);
            say("commit");
        } else {
            xcb_im_forward_event(server, ic, event);
            say(press ? "key" : "release");
        }
        break;
    }
    default:
        break;
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: xim_server NAME\n");
        return 2;
    }
    int screen_number = 0;
    xcb_connection_t *c = xcb_connect(NULL, &screen_number);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "xim_server: no X server\n");
        return 1;
    }
    xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; i < screen_number; i++) xcb_screen_next(&screens);
    xcb_screen_t *screen = screens.data;
    xcb_window_t window = xcb_generate_id(c);
    xcb_create_window(c, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY,
                      XCB_COPY_FROM_PARENT, 0, NULL);
    find_keys(c);
    xcb_compound_text_init();
    // Xlib's XIMPreeditCallbacks | XIMStatusNothing, and the plain XIMPreeditNothing | XIMStatusNothing.
    uint32_t style_list[] = {0x0002 | 0x0400, 0x0008 | 0x0400};
    xcb_im_styles_t styles = {2, style_list};
    xcb_im_encoding_t encoding_list[] = {"COMPOUND_TEXT"};
    xcb_im_encodings_t encodings = {1, encoding_list};
    xcb_im_trigger_keys_t none = {0, NULL};
    im = xcb_im_create(c, screen_number, window, argv[1], XCB_IM_ALL_LOCALES, &styles, &none, &none, &encodings,
                       XCB_EVENT_MASK_KEY_PRESS | XCB_EVENT_MASK_KEY_RELEASE, callback, NULL);
    if (!im || !xcb_im_open_im(im)) {
        fprintf(stderr, "xim_server: cannot serve @im=%s\n", argv[1]);
        return 1;
    }
    xcb_flush(c);
    say("ready");
    xcb_generic_event_t *event;
    while ((event = xcb_wait_for_event(c))) {
        // Hung: the events are read (so the X server never holds the client's messages back) and dropped.
        if (!mute) xcb_im_filter_event(im, event);
        free(event);
        xcb_flush(c);
    }
    xcb_im_close_im(im);
    xcb_im_destroy(im);
    xcb_disconnect(c);
    return 0;
}
