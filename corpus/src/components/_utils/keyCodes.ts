/** Key codes used by keyboard interactions across components. */
export enum KeyCode {
    BACKSPACE = 8,
    TAB = 9,
    ENTER = 13,
    ESC = 27,
    SPACE = 32,
    PAGE_UP = 33,
    PAGE_DOWN = 34,
    END = 35,
    HOME = 36,
    LEFT = 37,
    UP = 38,
    RIGHT = 39,
    DOWN = 40,
    DELETE = 46,
}

export const isActivationKey = (event: { keyCode: number }) => event.keyCode === KeyCode.ENTER || event.keyCode === KeyCode.SPACE;
