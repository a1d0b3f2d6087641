export type Placement =
    | 'top'
    | 'topLeft'
    | 'topRight'
    | 'bottom'
    | 'bottomLeft'
    | 'bottomRight'
    | 'left'
    | 'leftTop'
    | 'leftBottom'
    | 'right'
    | 'rightTop'
    | 'rightBottom';

interface Rect {
    top: number;
    left: number;
    width: number;
    height: number;
}

const opposite: Record<string, string> = { top: 'bottom', bottom: 'top', left: 'right', right: 'left' };

function side(placement: Placement): 'top' | 'bottom' | 'left' | 'right' {
    return placement.replace(/(Left|Right|Top|Bottom)$/, '') as 'top' | 'bottom' | 'left' | 'right';
}

function place(trigger: Rect, popup: Rect, placement: Placement, spacing: number): { top: number; left: number } {
    const main = side(placement);
    const align = placement.slice(main.length);
    let top = 0;
    let left = 0;

    if (main === 'top' || main === 'bottom') {
        top = main === 'top' ? trigger.top - popup.height - spacing : trigger.top + trigger.height + spacing;
        left = align === 'Left' ? trigger.left : align === 'Right' ? trigger.left + trigger.width - popup.width : trigger.left + (trigger.width - popup.width) / 2;
    } else {
        left = main === 'left' ? trigger.left - popup.width - spacing : trigger.left + trigger.width + spacing;
        top = align === 'Top' ? trigger.top : align === 'Bottom' ? trigger.top + trigger.height - popup.height : trigger.top + (trigger.height - popup.height) / 2;
    }
    return { top, left };
}

const fits = (coords: { top: number; left: number }, popup: Rect) =>
    coords.top >= 0 && coords.left >= 0 && coords.top + popup.height <= window.innerHeight && coords.left + popup.width <= window.innerWidth;

/**
 * Position a popup next to its trigger, flipping to the opposite side when
 * the preferred side would overflow the viewport. Returns page coordinates.
 */
export function computePosition(trigger: Rect, popup: Rect, placement: Placement, spacing: number) {
    let finalPlacement = placement;
    let coords = place(trigger, popup, placement, spacing);
    if (!fits(coords, popup)) {
        const main = side(placement);
        const flipped = (opposite[main] + placement.slice(main.length)) as Placement;
        const flippedCoords = place(trigger, popup, flipped, spacing);
        if (fits(flippedCoords, popup)) {
            finalPlacement = flipped;
            coords = flippedCoords;
        }
    }
    return { top: coords.top + window.scrollY, left: coords.left + window.scrollX, placement: finalPlacement };
}
