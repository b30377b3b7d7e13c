import { useEffect, useId, useRef, useState } from 'react';
import './ui.css';

export interface MenuItem<K extends string> {
  id: K;
  label: string;
  danger?: boolean;
  /** A line before this item, to set destructive items apart. */
  separated?: boolean;
  /** Shown but not chosen (still reached by the arrows, as ARIA's menu pattern has it), with `title` saying why. */
  disabled?: boolean;
  title?: string;
}

/**
 * A menu button (the ARIA pattern): Enter, Space or a click opens it with focus on the first item;
 * arrows move, Escape and a click outside close it, and focus returns to the button.
 */
export function Menu<K extends string>({ label, items, onChoose }: { label: string; items: MenuItem<K>[]; onChoose: (id: K) => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    list.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const outside = (e: PointerEvent) => {
      if (!list.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKey = (e: React.KeyboardEvent) => {
    const entries = [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => entries[(i + entries.length) % entries.length]?.focus();
    if (e.key === 'ArrowDown') go(at + 1);
    else if (e.key === 'ArrowUp') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(-1);
    else if (e.key === 'Escape' || e.key === 'Tab') close();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <span className="menu">
      <button ref={button} type="button" aria-haspopup="menu" aria-expanded={open} aria-controls={open ? menuId : undefined} onClick={() => setOpen(!open)}>
        {label} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul ref={list} id={menuId} role="menu" aria-label={label} className="menu-list" onKeyDown={onKey}>
          {items.map((item) => (
            <li key={item.id} role="none" className={item.separated ? 'separated' : undefined}>
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={item.danger ? 'danger' : undefined}
                aria-disabled={item.disabled || undefined}
                title={item.title}
                onClick={() => {
                  if (item.disabled) return;
                  close();
                  onChoose(item.id);
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
